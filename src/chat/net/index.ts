/** The net room's door: what the rest of src uses from src/chat/net/. */
export { AddressError, bareHost, checkPublic, kindOf } from "./address";
export type { AddressOptions, Checked, Lookup } from "./address";
export { pinnedRequest, proxyNote } from "./pinned";
export type { Connect } from "./pinned";

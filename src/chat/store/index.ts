/** The store room's door: what the rest of src uses from src/chat/store/. */
export { writeAtomic } from "./file";
export { tryLock } from "./lock";
export type { Lock } from "./lock";
export { Store } from "./store";
export type { Change } from "./store";

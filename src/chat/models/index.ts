/** The models room's door: what the rest of src uses from src/chat/models/. */
export { ENV_ENDPOINT, KeyChooser, keyName, originOf, storeKey } from "./bound-key";
export type { KeyToSend } from "./bound-key";
export { catalogue, endpointOf, LOCAL_SERVERS, localBaseURL, localOnlyModel, placeOf } from "./catalogue";
export type { EndpointSetting } from "./catalogue";

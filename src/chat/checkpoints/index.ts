/** The checkpoints room's door: what the rest of src uses from src/chat/checkpoints/. */
export {
  askedAt,
  chatViewKey,
  isChatViewKey,
  keptChats,
  listed,
  listedIn,
  messageOf,
  sessionCheckpoints,
} from "./chat-view";
export type { ChatCheckpoint } from "./chat-view";
export { neededChats, Waiting } from "./forks";
export { Restorer } from "./restore";
export type { Ask, OpenFile, RestoreEditor, RestoreParts, RestorePlan } from "./restore";
export { TurnCheckpoints } from "./turns";
export type { Since } from "./turns";
export { reasonText } from "./words";

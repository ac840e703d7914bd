/** The checkpoints room's door: what the rest of src uses from src/chat/checkpoints/. */
export {
  askedAt,
  chatViewKey,
  isChatViewKey,
  keptChats,
  knownCheckpoint,
  listed,
  listedIn,
  messageOf,
  sessionCheckpoints,
} from "./chat-view";
export type { ChatCheckpoint } from "./chat-view";
export { neededChats, Waiting } from "./forks";
export { TurnCheckpoints } from "./turns";
export type { Since } from "./turns";
export { reasonText, restoreQuestion, unsavedAmong } from "./words";

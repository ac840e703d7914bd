/** The pending room's door: what the rest of src uses from src/chat/pending/. */
export { PendingChanges } from "./changes";
export type { Action, Files, Pending } from "./changes";
export { hunksOf } from "./diff";
export type { Hunk } from "./diff";
export { diskFiles, writePending } from "./pending-editor";
export { approvalsFor, editsModeOf } from "./mode";
export type { EditsMode } from "./mode";
export { heldNote, readReviewed, reviewedText } from "./reviewed";
export type { PendingList } from "./reviewed";

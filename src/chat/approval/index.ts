/** The approval room's door: what the rest of src uses from src/chat/approval/. */
export { allowedTool, offered } from "./approval";
export type { CommandBook, Decision, Question, Rules, Setting } from "./approval";
export { allowanceOf, approveWith, grantTo, refusedNote } from "./judge";
export type { Allowance } from "./judge";
export {
  byGroup,
  DELEGATE,
  groupOf,
  inGroup,
  OPEN_TOOLS,
  openTools,
  PLUGINS_GROUP,
  shortened,
  unchosen,
  VSCODE_GROUP,
  withCommands,
} from "./tool-groups";
export type { Form, Grouped } from "./tool-groups";
export { listed } from "./tool-lists";

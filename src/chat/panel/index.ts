/** The panel room's door: what the rest of src uses from src/chat/panel/. */
export type { PersonKept } from "./assistants";
export { Kept } from "./context-refs";
export type { EditorContext, EditorSelection, EditorSymbol, TerminalOutput } from "./context-refs";
export { sweepKept } from "./context-sweep";
export type { PanelContextHost } from "./panel-context";
export { exportJson, exportMarkdown } from "./export";
export { PanelView } from "./view";
export type { ViewHost } from "./view";
export { planFiles } from "./plan-actions";

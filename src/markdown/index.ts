// Markdown -> keyed, sanitized HTML blocks, and the patches that stream them to the panel.
export { keyed, html } from "./keyed";
export { MarkdownStream, stream } from "./stream";
export { patch, apply, merge, coalesce, type Coalescer } from "./patch";
export { CommandLinks, safeHref, safeImage, type TandemCommand, type CommandTarget } from "./links";
export { CODE_ACTIONS } from "./code";
export type { RenderOptions } from "./render";

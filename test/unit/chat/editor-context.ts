/** An editor context for the `@` reference tests: one that knows nothing, but what a test gives it. */
import type { EditorContext } from "../../../src/chat/panel/context-refs";

/** An editor with no files, symbols, selection, editors, problems or terminal; `given` overrides. */
export function knowingNothing(given: Partial<EditorContext> = {}): EditorContext {
  return {
    root: () => undefined,
    files: async () => [],
    symbols: async () => [],
    selection: () => undefined,
    editors: () => [],
    problems: () => ({ count: 0, text: "" }),
    terminal: () => ({ missing: "none" }),
    ...given,
  };
}

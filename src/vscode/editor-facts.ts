import type vscode = require("vscode");
import { isLearned, type Facts, type Learned } from "../agent/facts";

/** Where the learned facts live in the editor's global state (per person, never per workspace). */
const STATE_KEY = "tandem.learnedModels";

/** The most models kept: the oldest learned is forgotten first. */
const MOST = 200;

/**
 * What Tandem learned of each model (text tools, the token cap's field, the window, the reasoning
 * field), kept in the editor's global state so a restart does not pay for it again. Global, not
 * workspace, state: a repository cannot plant facts that change what is sent.
 */
export function editorFacts(state: vscode.Memento): Facts {
  const all = (): Record<string, unknown> => {
    const value = state.get<unknown>(STATE_KEY);
    return value && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  };
  return {
    get(key: string): Learned | undefined {
      const value = all()[key];
      return isLearned(value) ? value : undefined;
    },
    set(key: string, learned: Learned): void {
      const kept = { ...all() };
      delete kept[key];
      kept[key] = learned;
      const keys = Object.keys(kept);
      for (const old of keys.slice(0, Math.max(0, keys.length - MOST))) delete kept[old];
      void state.update(STATE_KEY, kept);
    },
  };
}

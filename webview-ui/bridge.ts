/** The panel's line to the host: VS Code's webview API, typed with the protocol. */
import type { PanelMessage } from "../src/protocol/messages";

/** What the panel keeps across reloads of the webview (not across restarts of the editor). */
export interface SavedState {
  tab: string;
  draft: string;
  model: string;
  assistant: string;
  /** The new chat's project-instructions switch (false: off), kept with the draft. */
  instructions?: boolean;
  /** The new chat's Plan switch (true: on), kept with the draft. */
  plan?: boolean;
  /** The messages queued while an answer ran, not yet sent (read with care: an older page saved none). */
  queued?: unknown;
}

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

/** The host as the panel talks to it. */
export interface PanelBridge {
  post(message: PanelMessage): void;
  state(): Partial<SavedState>;
  save(state: SavedState): void;
}

/** Connects to the host; VS Code allows one call of acquireVsCodeApi per page. */
export function connect(): PanelBridge {
  const api = acquireVsCodeApi();
  return {
    post: (message) => api.postMessage(message),
    state: () => {
      const saved = api.getState();
      return saved && typeof saved === "object" ? (saved as Partial<SavedState>) : {};
    },
    save: (state) => api.setState(state),
  };
}

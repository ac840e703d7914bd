/** What an empty conversation shows: how to set up a model, or how to start once one is set. */
import { button, h, icon } from "./dom";
import type { Panel } from "./items";

/** The empty state for the store as it is now. */
export function emptyState(panel: Panel): HTMLElement {
  const { host, store } = panel;
  if (!store.configured) {
    return h(
      "div",
      { class: "empty", role: "region", "aria-label": "Set up a model" },
      icon("plug"),
      h("h2", { text: "Connect a model to start" }),
      h(
        "p",
        {},
        "Set the endpoint of an OpenAI-compatible server (OpenAI, OpenRouter, Ollama, vLLM, llama.cpp, LM Studio) in Settings, then run ",
        h("strong", { text: "Tandem: Set API Key" }),
        ". Or start the editor with ",
        h("code", { text: "AI_URL" }),
        " set to the server's address.",
      ),
      h(
        "div",
        { class: "form-actions" },
        button(
          "settings-gear",
          "Open Settings",
          () => host.post({ type: "command", command: "openSettings" }),
          {
            showLabel: true,
            primary: true,
          },
        ),
        button("key", "Tandem: Set API Key", () => host.post({ type: "command", command: "setApiKey" }), {
          showLabel: true,
        }),
      ),
    );
  }
  return h(
    "div",
    { class: "empty", role: "region", "aria-label": "New conversation" },
    icon("comment-discussion"),
    h("h2", { text: "Ask Tandem" }),
    h("p", {
      class: "muted",
      text: "Write below and press Enter. Attach files with the paper clip or drop them on the box.",
    }),
  );
}

/** What an empty conversation shows: how to set up a model, or how to start once one is set. */
import { button, h, icon } from "./dom";
import type { Panel } from "./items";
import { t } from "../src/protocol/l10n";
import { around } from "./page-l10n";

/** The empty state for the store as it is now. */
export function emptyState(panel: Panel): HTMLElement {
  const { host, store } = panel;
  if (!store.configured) {
    return h(
      "div",
      { class: "empty", role: "region", "aria-label": t("Set up a model") },
      icon("plug"),
      h("h2", { text: t("Connect a model to start") }),
      h(
        "p",
        {},
        ...around(
          t(
            "Set the endpoint of an OpenAI-compatible server (OpenAI, OpenRouter, Ollama, vLLM, llama.cpp, LM Studio) in Settings, then run {0}. Or start the editor with {1} set to the server's address.",
          ),
          h("strong", { text: t("Tandem: Set API Key") }),
          h("code", { text: "AI_URL" }),
        ),
      ),
      h(
        "div",
        { class: "form-actions" },
        button(
          "settings-gear",
          t("Open Settings"),
          () => host.post({ type: "command", command: "openSettings" }),
          {
            showLabel: true,
            primary: true,
          },
        ),
        button("key", t("Tandem: Set API Key"), () => host.post({ type: "command", command: "setApiKey" }), {
          showLabel: true,
        }),
      ),
    );
  }
  return h(
    "div",
    { class: "empty", role: "region", "aria-label": t("New conversation") },
    icon("comment-discussion"),
    h("h2", { text: t("Ask Tandem") }),
    h("p", {
      class: "muted",
      text: t("Write below and press Enter. Attach files with the paper clip or drop them on the box."),
    }),
  );
}

/**
 * Messages the person wrote while an answer ran: shown above the box, each editable (its text puts
 * it back in the box), removable, or sent now to join the run ("Send now", steering). The rest go
 * one at a time, as ordinary messages, each when the conversation's run before it ended. Kept in
 * the webview's saved state, so a reload loses none.
 */
import type { ContextEntry, FileRef } from "../src/protocol/messages";
import { button, h } from "./dom";
import type { Panel } from "./items";
import { t } from "../src/protocol/l10n";

/** A queued message: what `send` would have posted, with the chips it had. */
export interface Queued {
  chat: string;
  text: string;
  files: FileRef[];
  context: ContextEntry[];
  model: string;
  assistant: string;
}

/** The queued messages of every conversation; the open one's are shown. */
export class Queue {
  readonly element = h("div", { class: "queued", role: "list", "aria-label": t("Queued messages") });
  private entries: Queued[] = [];

  constructor(
    private readonly panel: Panel,
    /** Puts a queued message back in the box to edit it. */
    private readonly edit: (message: Queued) => void,
    private readonly saved: () => void,
  ) {}

  /** What is queued, for the saved state. */
  get messages(): Queued[] {
    return this.entries;
  }

  /** Takes the queue kept before a reload (what does not read as one is dropped). */
  load(saved: unknown): void {
    this.entries = Array.isArray(saved) ? saved.filter(isQueued) : [];
    this.refresh();
  }

  /** Queues `message` to be sent when its conversation's run ends. */
  add(message: Queued): void {
    this.entries.push(message);
    this.changed();
  }

  /** The run of `chat` ended (or is not going on): its first queued message is sent. */
  ended(chat: string): void {
    if (this.panel.store.running.has(chat)) return;
    const next = this.entries.find((m) => m.chat === chat);
    if (!next) return;
    this.take(next);
    this.panel.host.post({
      type: "send",
      chat: next.chat,
      text: next.text,
      files: next.files,
      model: next.model,
      assistant: next.assistant,
      ...(next.context.length ? { context: next.context.map((e) => e.ref) } : {}),
    });
  }

  /** Sends every conversation's first queued message whose run is not going on (after a reload). */
  resume(): void {
    for (const chat of new Set(this.entries.map((m) => m.chat))) this.ended(chat);
  }

  /** Shows the open conversation's queued messages. */
  refresh(): void {
    const open = this.entries.filter((m) => m.chat === this.panel.store.chat);
    this.element.replaceChildren(...open.map((message) => this.row(message)));
  }

  private row(message: Queued): HTMLElement {
    const text = h("button", {
      type: "button",
      class: "queued-text",
      title: t("Edit this message"),
      "aria-label": t("Edit the queued message: {0}", message.text),
      text: message.text,
    });
    text.addEventListener("click", () => {
      this.take(message);
      this.edit(message);
    });
    return h(
      "div",
      { class: "queued-message", role: "listitem" },
      h("span", { class: "queued-label muted", text: t("Queued") }),
      text,
      button("arrow-up", t("Send now"), () => this.steer(message), {
        showLabel: true,
        className: "queued-now",
      }),
      button("close", t("Remove the queued message"), () => this.take(message)),
    );
  }

  /** Sends `message` at once, to join the run going on at its next step. */
  private steer(message: Queued): void {
    this.take(message);
    this.panel.host.post({
      type: "steer",
      chat: message.chat,
      text: message.text,
      files: message.files,
      model: message.model,
      ...(message.context.length ? { context: message.context.map((e) => e.ref) } : {}),
    });
  }

  private take(message: Queued): void {
    this.entries = this.entries.filter((m) => m !== message);
    this.changed();
  }

  private changed(): void {
    this.refresh();
    this.saved();
  }
}

function isQueued(value: unknown): value is Queued {
  if (!value || typeof value !== "object") return false;
  const m = value as Record<string, unknown>;
  return (
    typeof m.chat === "string" &&
    m.chat !== "" &&
    typeof m.text === "string" &&
    Array.isArray(m.files) &&
    Array.isArray(m.context) &&
    typeof m.model === "string" &&
    typeof m.assistant === "string"
  );
}

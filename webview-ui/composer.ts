/**
 * Where the person writes: a multi-line box (Enter sends, Shift+Enter breaks the line), attached
 * files as chips, the model and assistant pickers, Send or Stop, and the context meter.
 */
import { usageLine } from "./usage";
import type { FileRef } from "../src/protocol/messages";
import { button, h, tokens } from "./dom";
import type { Panel } from "./items";
import { InstructionsSwitch } from "./instructions";

export class Composer {
  readonly element = h("form", { class: "composer", "aria-label": "Message" });
  readonly input = h("textarea", {
    class: "input",
    rows: 3,
    placeholder: "Ask Tandem… (Enter to send, Shift+Enter for a new line)",
    "aria-label": "Message to Tandem",
  });
  private readonly files = h("div", {
    class: "chips attached",
    role: "list",
    "aria-label": "Attached files",
  });
  readonly model = h("select", { class: "picker", "aria-label": "Model", title: "Model" });
  readonly assistant = h("select", { class: "picker", "aria-label": "Assistant", title: "Assistant" });
  private readonly meter = h("div", { class: "meter-slot" });
  private readonly notice = h("div", { class: "notice", role: "status" });
  private readonly action = h("span", { class: "action-slot" });
  private readonly instructions: InstructionsSwitch;
  private attached: FileRef[] = [];
  /** The choices the person made before the webview reloaded. */
  preferred = { model: "", assistant: "" };

  constructor(
    private readonly panel: Panel,
    private readonly saved: () => void,
  ) {
    const attach = button("attach", "Attach files", () => panel.host.post({ type: "attach" }));
    this.instructions = new InstructionsSwitch(panel);
    this.element.append(
      this.notice,
      this.files,
      this.input,
      h(
        "div",
        { class: "toolbar" },
        attach,
        this.assistant,
        this.model,
        this.instructions.element,
        h("span", { class: "grow" }),
        this.meter,
        this.action,
      ),
    );
    this.element.addEventListener("submit", (event) => {
      event.preventDefault();
      this.send();
    });
    this.input.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        this.send();
      } else if (event.key === "Escape" && panel.store.busy) {
        event.preventDefault();
        this.stop();
      }
    });
    this.input.addEventListener("input", () => this.saved());
    this.model.addEventListener("change", () => this.saved());
    this.assistant.addEventListener("change", () => this.saved());
    this.element.addEventListener("dragover", (event) => {
      event.preventDefault();
      this.element.classList.add("dropping");
    });
    this.element.addEventListener("dragleave", () => this.element.classList.remove("dropping"));
    this.element.addEventListener("drop", (event) => this.drop(event));
    this.refresh();
  }

  /** Sends the message with its files to the chosen model and assistant. */
  send(): void {
    const text = this.input.value.trim();
    if (!text || this.panel.store.busy) return;
    const { store, host } = this.panel;
    host.post({
      type: "send",
      chat: store.chat,
      text,
      files: this.attached,
      model: this.model.value,
      assistant: this.assistant.value,
    });
    this.input.value = "";
    this.attached = [];
    this.showFiles();
    this.saved();
  }

  /** Asks to condense the open conversation for the model (`/compact`); the transcript stays whole. */
  compact(): void {
    const { store, host } = this.panel;
    if (!store.chat || store.busy) return;
    host.post({
      type: "send",
      chat: store.chat,
      text: "/compact",
      files: [],
      model: this.model.value,
      assistant: "",
    });
  }

  /** Asks the host to stop the open conversation's run. */
  stop(): void {
    if (this.panel.store.busy) this.panel.host.post({ type: "stop", chat: this.panel.store.chat });
  }

  /** Adds files the host's picker or a drop gave. */
  attach(files: FileRef[]): void {
    for (const file of files) if (!this.attached.some((f) => f.path === file.path)) this.attached.push(file);
    this.showFiles();
  }

  /** Shows a notice from the host. */
  say(level: "info" | "warning" | "error", text: string): void {
    this.notice.className = `notice ${level}`;
    this.notice.textContent = text;
  }

  /** Shows what depends on the store: the pickers, Send or Stop, the meter. */
  refresh(): void {
    this.fillModels();
    this.fillAssistants();
    this.instructions.refresh();
    const { store } = this.panel;
    const busy = store.busy;
    const current = this.action.firstElementChild;
    if (!current || current.classList.contains("stop") !== busy) {
      const hadFocus = current !== null && current === document.activeElement;
      const next = busy
        ? button("debug-stop", "Stop", () => this.stop(), { className: "stop" })
        : button("send", "Send", () => this.send(), { className: "send", primary: true });
      this.action.replaceChildren(next);
      if (hadFocus) next.focus();
    }
    const context = store.tables.contexts.get(store.chat);
    this.meter.replaceChildren();
    if (context && context.window > 0) {
      const share = Math.min(1, context.used / context.window);
      const bar = h("span", { class: "bar" }, h("span", { class: "fill" }));
      // The width is set through CSSOM: inline style attributes are refused by the page's CSP.
      (bar.firstElementChild as HTMLElement).style.width = `${Math.round(share * 100)}%`;
      this.meter.append(
        h(
          "span",
          {
            class: `meter${share > 0.8 ? " high" : ""}`,
            role: "meter",
            "aria-label": "Context used",
            "aria-valuemin": 0,
            "aria-valuemax": context.window,
            "aria-valuenow": context.used,
            title: [
              `What the model was last sent: ${context.used} of ${context.window} tokens` +
                " (older turns may be condensed for the model; your transcript keeps them all).",
              context.total ? `This conversation: ${usageLine(context.total)}.` : "",
            ]
              .filter(Boolean)
              .join("\n"),
          },
          bar,
          h("span", { class: "muted", text: `${tokens(context.used)} / ${tokens(context.window)}` }),
        ),
        // `/compact` as a button: the same message the person can type, queued like any other.
        button("fold", "Condense the conversation for the model", () => this.compact()),
      );
    }
  }

  private fillModels(): void {
    const { store } = this.panel;
    const chosen = this.model.value || this.preferred.model;
    const groups = new Map<string, HTMLOptGroupElement>();
    const options: (HTMLOptionElement | HTMLOptGroupElement)[] = [
      h("option", { value: "", text: "Default model" }),
    ];
    for (const choice of store.tables.choices.values()) {
      const name = choice.group || "Models";
      let group = groups.get(name);
      if (!group) {
        group = h("optgroup", { label: name });
        groups.set(name, group);
        options.push(group);
      }
      group.append(
        h("option", { value: choice.id, title: choice.note || undefined, text: choice.name || choice.id }),
      );
    }
    this.model.replaceChildren(...options);
    this.model.value = store.tables.choices.has(chosen) ? chosen : "";
  }

  private fillAssistants(): void {
    const { store } = this.panel;
    const chosen = this.assistant.value || this.preferred.assistant || store.assistant;
    const assistants = [...store.tables.assistants.values()];
    this.assistant.replaceChildren(
      ...assistants.map((a) =>
        h("option", {
          value: a.id,
          text: `${a.name || a.id}${a.source === "repository" ? " (repository)" : ""}`,
        }),
      ),
    );
    this.assistant.hidden = assistants.length < 2;
    if (store.tables.assistants.has(chosen)) this.assistant.value = chosen;
  }

  private showFiles(): void {
    this.files.replaceChildren(
      ...this.attached.map((file) => {
        const remove = button("close", `Remove ${file.name}`, () => {
          this.attached = this.attached.filter((f) => f !== file);
          this.showFiles();
          this.input.focus();
        });
        return h(
          "span",
          { class: "chip", role: "listitem", title: file.path },
          h("span", { text: file.name }),
          remove,
        );
      }),
    );
  }

  private drop(event: DragEvent): void {
    event.preventDefault();
    this.element.classList.remove("dropping");
    const data = event.dataTransfer;
    if (!data) return;
    const uris = (data.getData("text/uri-list") || data.getData("text/plain"))
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith("#"));
    if (uris.length) this.panel.host.post({ type: "drop", uris });
  }
}

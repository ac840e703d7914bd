/**
 * Where the person writes: a multi-line box (Enter sends, Shift+Enter breaks the line), attached
 * files and `@` context as chips, the model and assistant pickers, Send or Stop, and the context meter.
 */
import { reason } from "../src/protocol/reason";
import { usageLine } from "./usage-text";
import type { ContextEntry, ContextSuggested, FileRef, PromptsListed } from "../src/protocol/messages";
import { button, compactCount, h, icon } from "./dom";
import type { Panel } from "./items";
import { modelOptions } from "./again";
import { ContextPicker, KIND_ICONS } from "./picker";
import { pastedImages } from "./paste";
import { SlashMenu } from "./slash";
import { Queue, type Queued } from "./queue";

/** A chip of the message: a file (attached, dropped or pasted) or a reference picked with `@`. */
type Attached = { file: FileRef } | { entry: ContextEntry };
import { InstructionsSwitch } from "./instruction-chips";
import { replaceIfChanged } from "./keyed-rows";
import { PlanSwitch } from "./plan-mode";
import { t } from "../src/protocol/l10n";

export class Composer {
  readonly element = h("form", { class: "composer", "aria-label": t("Message") });
  readonly input = h("textarea", {
    class: "input",
    rows: 3,
    placeholder: t("Ask Tandem… (Enter to send, Shift+Enter for a new line)"),
    "aria-label": t("Message to Tandem"),
  });
  private readonly files = h("div", {
    class: "chips attached",
    role: "list",
    "aria-label": t("Attached files and context"),
  });
  readonly model = h("select", { class: "picker", "aria-label": t("Model"), title: t("Model") });
  readonly assistant = h("select", { class: "picker", "aria-label": t("Assistant"), title: t("Assistant") });
  private readonly meter = h("div", { class: "meter-slot" });
  private readonly notice = h("div", { class: "notice", role: "status" });
  private readonly action = h("span", { class: "action-slot" });
  private attached: Attached[] = [];
  private readonly picker: ContextPicker;
  private readonly slash: SlashMenu;
  private readonly mention: HTMLButtonElement;
  /** Where the `@` that opened the picker is in the box (-1: opened by the button). */
  private at = -1;
  private readonly instructions: InstructionsSwitch;
  readonly plan: PlanSwitch;
  /** What the person wrote while an answer ran, sent when it ends (or now, to steer it). */
  readonly queue: Queue;
  /** The choices the person made before the webview reloaded. */
  preferred = { model: "", assistant: "" };

  constructor(
    private readonly panel: Panel,
    private readonly saved: () => void,
  ) {
    const attach = button("attach", t("Attach files"), () => panel.host.post({ type: "attach" }));
    this.mention = button("mention", t("Add context"), () => this.openPicker(-1));
    this.mention.setAttribute("aria-haspopup", "listbox");
    this.picker = new ContextPicker(
      (query) => panel.host.post({ type: "suggest", query }),
      (entry) => this.choose(entry),
      (typed, refocus) => this.dismiss(typed, refocus),
    );
    this.slash = new SlashMenu(this.input, () => panel.host.post({ type: "prompts" }));
    this.instructions = new InstructionsSwitch(panel, () => this.saved());
    this.plan = new PlanSwitch(panel, () => this.saved());
    this.queue = new Queue(
      panel,
      (message) => this.unqueue(message),
      () => this.saved(),
    );
    this.element.append(
      this.queue.element,
      this.picker.element,
      this.slash.element,
      this.notice,
      this.files,
      this.input,
      h(
        "div",
        { class: "toolbar" },
        attach,
        this.mention,
        this.assistant,
        this.model,
        this.instructions.element,
        this.plan.element,
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
      if (this.slash.key(event)) return;
      if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        this.send();
      } else if (event.key === "Escape" && panel.store.busy) {
        event.preventDefault();
        this.stop();
      } else if (event.key === "Backspace" && this.atStart() && this.attached.length) {
        // Backspace at the very start of the box takes back the last chip, as in a token field.
        event.preventDefault();
        this.remove(this.attached[this.attached.length - 1]);
      }
    });
    this.input.addEventListener("input", (event) => {
      this.saved();
      this.slash.update();
      const typed = event as InputEvent;
      const caret = this.input.selectionStart;
      // An `@` starting a word opens the picker (not the one inside an address like a@b.c).
      if (typed.inputType === "insertText" && typed.data === "@" && caret === this.input.selectionEnd) {
        const before = this.input.value.slice(0, caret - 1);
        if (before === "" || /\s$/.test(before)) this.openPicker(caret - 1);
      }
    });
    this.input.addEventListener("paste", (event) => this.paste(event));
    this.model.addEventListener("change", () => this.saved());
    this.assistant.addEventListener("change", () => {
      this.plan.follow(this.assistant.value);
      this.plan.refresh();
      this.saved();
    });
    this.element.addEventListener("dragover", (event) => {
      event.preventDefault();
      this.element.classList.add("dropping");
    });
    this.element.addEventListener("dragleave", () => this.element.classList.remove("dropping"));
    this.element.addEventListener("drop", (event) => this.drop(event));
    this.refresh();
  }

  /** Sends the message with its files to the chosen model and assistant; while an answer runs, queues it. */
  send(): void {
    const text = this.input.value.trim();
    if (!text) return;
    const { store, host } = this.panel;
    const files = this.attached.flatMap((a) => ("file" in a ? [a.file] : []));
    const context = this.attached.flatMap((a) => ("entry" in a ? [a.entry.ref] : []));
    if (store.busy) {
      const entries = this.attached.flatMap((a) => ("entry" in a ? [a.entry] : []));
      this.queue.add({
        chat: store.chat,
        text,
        files,
        context: entries,
        model: this.model.value,
        assistant: this.assistant.value,
      });
      this.cleared();
      return;
    }
    host.post({
      type: "send",
      chat: store.chat,
      text,
      files,
      model: this.model.value,
      assistant: this.assistant.value,
      ...(context.length ? { context } : {}),
      // A new chat takes the switch as it was set before it existed; the next new chat starts on.
      ...(!store.chat && !this.instructions.draft ? { instructions: false } : {}),
      ...(!store.chat && this.plan.draft ? { mode: "plan" as const } : {}),
    });
    if (!store.chat) {
      this.instructionsDraft = true;
      // The next new chat starts as its assistant says.
      this.plan.draft = false;
      this.plan.followed = undefined;
      this.plan.refresh();
    }
    this.cleared();
  }

  private cleared(): void {
    this.input.value = "";
    this.attached = [];
    this.showFiles();
    this.saved();
  }

  /** A queued message back in the box (before what is in it), with its chips, to edit and send again. */
  private unqueue(message: Queued): void {
    const now = this.input.value.trim();
    this.input.value = now ? `${message.text}\n${now}` : message.text;
    for (const entry of message.context) {
      const same = JSON.stringify(entry.ref);
      if (!this.attached.some((a) => "entry" in a && JSON.stringify(a.entry.ref) === same))
        this.attached.push({ entry });
    }
    this.attach(message.files);
    this.input.focus();
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
    for (const file of files)
      if (!this.attached.some((a) => "file" in a && a.file.path === file.path)) this.attached.push({ file });
    this.showFiles();
  }

  /** The host's prompt files, for the `/` menu. */
  prompts(message: PromptsListed): void {
    this.slash.listed(message.prompts);
  }

  /** The host's entries for the picker's query. */
  suggested(message: ContextSuggested): void {
    this.picker.show(message.query, message.entries);
  }

  private openPicker(at: number): void {
    this.at = at;
    this.picker.open();
  }

  /** Adds the chosen reference as a chip, in place of the `@` that opened the picker. */
  private choose(entry: ContextEntry): void {
    const same = JSON.stringify(entry.ref);
    if (!this.attached.some((a) => "entry" in a && JSON.stringify(a.entry.ref) === same))
      this.attached.push({ entry });
    this.showFiles();
    let caret = this.input.selectionStart;
    if (this.at >= 0 && this.input.value[this.at] === "@") {
      this.input.setRangeText("", this.at, this.at + 1);
      caret = this.at;
    }
    this.input.focus();
    this.input.setSelectionRange(caret, caret);
    this.saved();
  }

  /** The picker closed without a choice: what was typed in it goes on after the `@`, so nothing is lost. */
  private dismiss(typed: string, refocus: boolean): void {
    if (this.at >= 0 && typed) {
      this.input.setRangeText(typed, this.at + 1, this.at + 1, "end");
      this.saved();
    }
    if (!refocus) return;
    if (this.at >= 0) this.input.focus();
    else this.mention.focus();
  }

  private atStart(): boolean {
    return this.input.selectionStart === 0 && this.input.selectionEnd === 0;
  }

  private remove(chip: Attached): void {
    this.attached = this.attached.filter((a) => a !== chip);
    this.showFiles();
    this.input.focus();
  }

  /** Images pasted into the box go to the host, which keeps them and answers with their chips. */
  private paste(event: ClipboardEvent): void {
    const data = event.clipboardData;
    if (!data) return;
    const images = pastedImages(data);
    if (!images.length) return;
    // Only the images are taken: pasted text, if any, still goes into the box.
    if (!data.types.includes("text/plain")) event.preventDefault();
    for (const image of images) {
      void image.then(
        (pasted) => this.panel.host.post({ type: "paste", ...pasted }),
        (error: unknown) => this.say("warning", reason(error)),
      );
    }
  }

  /** The new chat's project-instructions switch (kept with the draft). */
  get instructionsDraft(): boolean {
    return this.instructions.draft;
  }

  set instructionsDraft(on: boolean) {
    this.instructions.draft = on;
    this.instructions.refresh();
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
    this.plan.follow(this.assistant.value);
    this.plan.refresh();
    this.queue.refresh();
    const { store } = this.panel;
    const busy = store.busy;
    const current = this.action.firstElementChild;
    if (!current || current.classList.contains("stop") !== busy) {
      const hadFocus = current !== null && current === document.activeElement;
      const next = busy
        ? button("debug-stop", t("Stop"), () => this.stop(), { className: "stop" })
        : button("send", t("Send"), () => this.send(), { className: "send", primary: true });
      this.action.replaceChildren(next);
      if (hadFocus) next.focus();
    }
    // Written only when what it shows differs: a refresh that changes nothing changes no DOM.
    replaceIfChanged(this.meter, this.meterParts());
  }

  /** The context meter of the open conversation and its Condense button (none before a first request). */
  private meterParts(): HTMLElement[] {
    const { store } = this.panel;
    const context = store.tables.contexts.get(store.chat);
    if (context && context.window > 0) {
      const fixed = context.fixed ?? 0;
      // Before a first answer the requests' fixed part is all the model will be sent.
      const used = Math.max(context.used, fixed);
      const share = Math.min(1, used / context.window);
      const fill = h("span", { class: "fill" });
      // What every request carries (instructions, tool schemas), drawn as the start of the fill.
      const part = h("span", { class: "fixed" });
      const bar = h("span", { class: "bar" }, fill, part);
      // The widths are set through CSSOM: inline style attributes are refused by the page's CSP.
      fill.style.width = `${Math.round(share * 100)}%`;
      part.style.width = `${Math.round(Math.min(1, fixed / context.window) * 100)}%`;
      return [
        h(
          "span",
          {
            class: `meter${share > 0.8 ? " high" : ""}`,
            role: "meter",
            "aria-label": t("Context used"),
            "aria-valuemin": 0,
            "aria-valuemax": context.window,
            "aria-valuenow": used,
            title: [
              t(
                "What the model was last sent: {0} of {1} tokens" +
                  " (older turns may be condensed for the model; your transcript keeps them all).",
                context.used,
                context.window,
              ),
              fixed
                ? t(
                    "Instructions and tool descriptions take {0} tokens of every request ({1} of the window).",
                    fixed,
                    `${Math.round((fixed / context.window) * 100)}%`,
                  )
                : "",
              context.total ? t("This conversation: {0}.", usageLine(context.total)) : "",
            ]
              .filter(Boolean)
              .join("\n"),
          },
          bar,
          h("span", {
            class: "muted",
            text: `${compactCount(used)} / ${compactCount(context.window)}`,
          }),
        ),
        // `/compact` as a button: the same message the person can type, queued like any other.
        button("fold", t("Condense the conversation for the model"), () => this.compact()),
      ];
    }
    return [];
  }

  private fillModels(): void {
    const { store } = this.panel;
    const chosen = this.model.value || this.preferred.model;
    replaceIfChanged(this.model, modelOptions(store, { value: "", text: t("Default model") }));
    this.model.value = store.tables.choices.has(chosen) ? chosen : "";
  }

  private fillAssistants(): void {
    const { store } = this.panel;
    const chosen = this.assistant.value || this.preferred.assistant || store.assistant;
    const assistants = [...store.tables.assistants.values()];
    replaceIfChanged(
      this.assistant,
      assistants.map((a) =>
        h("option", {
          value: a.id,
          text: a.source === "repository" ? t("{0} (repository)", a.name || a.id) : a.name || a.id,
        }),
      ),
    );
    const hidden = assistants.length < 2;
    if (this.assistant.hidden !== hidden) this.assistant.hidden = hidden;
    if (store.tables.assistants.has(chosen)) this.assistant.value = chosen;
  }

  private showFiles(): void {
    this.files.replaceChildren(
      ...this.attached.map((chip) => {
        const name = "file" in chip ? chip.file.name : chip.entry.label;
        const title = "file" in chip ? chip.file.path : chip.entry.detail || chip.entry.label;
        return h(
          "span",
          { class: "chip", role: "listitem", title },
          "entry" in chip ? icon(KIND_ICONS[chip.entry.ref.kind]) : undefined,
          h("span", { text: name }),
          button("close", t("Remove {0}", name), () => this.remove(chip)),
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

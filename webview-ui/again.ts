/**
 * Asking again from the transcript: the person's message with its inline editor (edit and resend,
 * which forks the conversation on the host), and Regenerate / Retry with a choice of model.
 */
import type { FileRef } from "../src/protocol/messages";
import { parentOf } from "../src/protocol/keys";
import type { Item } from "../src/protocol/rows";
import { append, button, fill, h, icon } from "./dom";
import type { ItemView, Panel } from "./items";
import { RestoreMenu } from "./restore-menu";
import type { PanelState } from "./panel-state";
import { t } from "../src/protocol/l10n";

/** The models the person can choose, grouped as the composer lists them; `first` an option before them. */
export function modelOptions(
  store: PanelState,
  first?: { value: string; text: string },
): (HTMLOptionElement | HTMLOptGroupElement)[] {
  const groups = new Map<string, HTMLOptGroupElement>();
  const options: (HTMLOptionElement | HTMLOptGroupElement)[] = first ? [h("option", first)] : [];
  for (const choice of store.tables.choices.values()) {
    const name = choice.group || t("Models");
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
  return options;
}

/**
 * "Regenerate" (or "Retry") on the same model, and "… with another model", which shows the model
 * list with a button that asks with the one chosen. `ask(model)` posts the request ("" the same model).
 */
export function askAgain(
  panel: Panel,
  verb: "Regenerate" | "Retry",
  ask: (model: string) => void,
): HTMLElement {
  // Whole sentences per verb, so each language words them its own way.
  const words =
    verb === "Regenerate"
      ? {
          verb: t("Regenerate"),
          group: t("Regenerate this answer"),
          other: t("Regenerate with another model…"),
          model: t("Model to regenerate with"),
        }
      : {
          verb: t("Retry"),
          group: t("Retry this answer"),
          other: t("Retry with another model…"),
          model: t("Model to retry with"),
        };
  const slot = h("span", { class: "again", role: "group", "aria-label": words.group });
  const closed = (): void => {
    const other = button("ellipsis", words.other, () => open(), { className: "link" });
    slot.replaceChildren(
      button("refresh", words.verb, () => ask(""), { showLabel: true, className: "link" }),
      other,
    );
  };
  const open = (): void => {
    const models = h("select", { class: "picker", "aria-label": words.model });
    models.append(...modelOptions(panel.store));
    const cancel = (): void => {
      closed();
      (slot.lastElementChild as HTMLElement | null)?.focus();
    };
    models.addEventListener("keydown", (event) => {
      if (event.key === "Escape") {
        event.preventDefault();
        cancel();
      }
    });
    slot.replaceChildren(
      models,
      button(
        "refresh",
        words.verb,
        () => {
          if (models.value) ask(models.value);
        },
        { showLabel: true, primary: true },
      ),
      button("close", t("Cancel"), cancel),
    );
    models.focus();
  };
  closed();
  return slot;
}

/**
 * Whether the text item `item` ends a finished answer: no text comes after it in its answer and the
 * message (or retry) it answers is done. Regenerate is offered there.
 */
export function endsAnswer(item: Item, store: PanelState): boolean {
  if (item.kind !== "text" || !item.done || item.state === "interrupted") return false;
  const group = parentOf(item.id);
  if (!group || store.tables.items.get(group)?.done === false) return false;
  return store.lastText(group) === item.id;
}

/**
 * The inline editor of the person's sent message: its words and files, Send (Enter) and Cancel
 * (Escape). Sending asks the host to fork the conversation there; when the host can put the files
 * back as they were, a checkbox offers it.
 */
export class MessageEditor {
  readonly element = h("form", { class: "message-editor", "aria-label": t("Edit your message") });
  private readonly input = h("textarea", { class: "input", rows: 3, "aria-label": t("Edited message") });
  private readonly chips = h("div", {
    class: "chips attached",
    role: "list",
    "aria-label": t("Attached files"),
  });
  private readonly restore = h("input", { type: "checkbox" });
  private files: FileRef[];

  constructor(
    private readonly item: Item,
    private readonly panel: Panel,
    private readonly done: () => void,
  ) {
    this.input.value = item.text;
    this.files = [...item.files];
    const send = button("send", t("Send"), () => this.send(), { showLabel: true, primary: true });
    const cancel = button("close", t("Cancel"), () => this.done(), { showLabel: true });
    append(this.element, [
      this.input,
      this.chips,
      panel.store.restore
        ? h(
            "label",
            { class: "restore" },
            this.restore,
            h("span", { text: t("Also restore the files to this point") }),
          )
        : undefined,
      h(
        "div",
        { class: "toolbar" },
        h("span", { class: "muted", text: t("Sending starts a new conversation from here.") }),
        h("span", { class: "grow" }),
        cancel,
        send,
      ),
    ]);
    this.element.addEventListener("submit", (event) => {
      event.preventDefault();
      this.send();
    });
    this.element.addEventListener("keydown", (event) => {
      if (event.key === "Escape") {
        event.preventDefault();
        this.done();
      } else if (
        event.target === this.input &&
        event.key === "Enter" &&
        !event.shiftKey &&
        !event.isComposing
      ) {
        event.preventDefault();
        this.send();
      }
    });
    this.showFiles();
  }

  /** Puts the caret at the end of the message. */
  focus(): void {
    this.input.focus();
    this.input.setSelectionRange(this.input.value.length, this.input.value.length);
  }

  private send(): void {
    const text = this.input.value.trim();
    if (!text) return;
    this.panel.host.post({
      type: "resend",
      item: this.item.id,
      text,
      files: this.files,
      model: this.item.model,
      restore: this.panel.store.restore && this.restore.checked,
    });
  }

  private showFiles(): void {
    this.chips.replaceChildren(
      ...this.files.map((file) =>
        h(
          "span",
          { class: "chip", role: "listitem", title: file.path },
          h("span", { text: file.name }),
          button("close", t("Remove {0}", file.name), () => {
            this.files = this.files.filter((f) => f !== file);
            this.showFiles();
            this.input.focus();
          }),
        ),
      ),
    );
  }
}

/** The person's message: its words and files, and Edit, which opens the inline editor in its place. */
export class UserView implements ItemView {
  readonly element = h("article", { class: "item user", "aria-label": t("Your message") });
  /** The inline editor while the person edits the message (the row's changes wait until it closes). */
  private editor?: MessageEditor;
  private item: Item;
  /** Kept across updates of the row, so a change to the message never closes a menu in use. */
  private restoreMenu?: RestoreMenu;

  constructor(
    item: Item,
    private readonly panel: Panel,
  ) {
    this.item = item;
    this.update(item);
  }

  private edit(): void {
    this.editor = new MessageEditor(this.item, this.panel, () => {
      this.editor = undefined;
      this.update(this.item);
      this.element.querySelector<HTMLElement>(".edit-message")?.focus();
    });
    fill(this.element, this.editor.element);
    this.editor.focus();
  }

  update(item: Item): void {
    this.item = item;
    if (this.editor) return;
    const chips = item.files.map((file) => {
      const chip = button(
        "file",
        file.name,
        () => this.panel.host.post({ type: "openFile", path: file.path }),
        {
          showLabel: true,
          className: "chip",
        },
      );
      chip.title = file.path;
      return chip;
    });
    // Going back to this message, where the host can put the files back.
    const restore = this.panel.store.restore
      ? (this.restoreMenu ??= new RestoreMenu(item, this.panel))
      : undefined;
    // A control kept across the update (the open menu's) keeps the focus it had.
    const focused = this.element.contains(document.activeElement) ? document.activeElement : null;
    fill(
      this.element,
      h(
        "div",
        { class: "who" },
        icon("account"),
        h("span", { text: t("You") }),
        item.model ? h("span", { class: "muted", text: item.model }) : undefined,
        h("span", { class: "grow" }),
        restore?.button,
        button("edit", t("Edit message"), () => this.edit(), { className: "edit-message" }),
      ),
      h("div", { class: "plain", text: item.text }),
      chips.length
        ? h("div", { class: "chips", role: "list" }, ...chips.map((c) => h("span", { role: "listitem" }, c)))
        : undefined,
      restore?.menu,
    );
    if (focused instanceof HTMLElement && focused.isConnected) focused.focus();
  }
}

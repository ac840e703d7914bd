/**
 * A page that lists rows of one table and edits the chosen one in a form: used for assistants,
 * skills and plugins. Fields are plain inputs; saving posts the edited row to the host.
 */
import { button, h } from "./dom";
import { reconcile } from "./keyed-rows";
import { t } from "../src/protocol/l10n";

/** One field of the form. */
export interface Field<T> {
  name: keyof T & string;
  label: string;
  kind: "text" | "textarea" | "checkbox" | "password" | "select";
  hint?: string | ((row: T) => string);
  /** The options of a select: value and label. */
  options?: () => [string, string][];
}

/** What a page edits: how to list, name, make, save and delete its rows. */
export interface EditorSpec<T extends { id: string }> {
  title: string;
  noun: string;
  /** The page's own words: "New assistant", "(unnamed assistant)", "No assistants yet.". */
  words: { add: string; unnamed: string; none: string };
  fields: Field<T>[];
  rows: () => T[];
  label: (row: T) => string;
  /** A line under a row's name in the list (its status, its description). */
  detail?: (row: T) => string;
  blank: () => T;
  save: (row: T) => void;
  delete: (id: string) => void;
}

type Value = string | boolean;

export class RowEditor<T extends { id: string }> {
  readonly element: HTMLElement;
  private readonly list = h("ul", { class: "rows" });
  private readonly form = h("form", { class: "edit" });
  private chosen: T | undefined;

  constructor(private readonly spec: EditorSpec<T>) {
    this.list.setAttribute("aria-label", spec.title);
    this.element = h(
      "section",
      { class: "page", "aria-label": spec.title },
      h(
        "div",
        { class: "page-head" },
        h("h2", { text: spec.title }),
        button("add", spec.words.add, () => this.edit(spec.blank())),
      ),
      this.list,
      this.form,
    );
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.save();
    });
  }

  /** Shows the rows as the store has them (by key: only a row whose name or line changed is made again); the open form keeps what the person typed. */
  refresh(): void {
    const rows = this.spec.rows();
    if (rows.length === 0) {
      reconcile(this.list, [
        { key: "", look: "", make: () => h("li", { class: "muted blank", text: this.spec.words.none }) },
      ]);
      return;
    }
    reconcile(
      this.list,
      rows.map((row) => {
        const label = this.spec.label(row) || this.spec.words.unnamed;
        const detail = this.spec.detail?.(row);
        const current = this.chosen?.id === row.id;
        return {
          key: row.id,
          look: JSON.stringify([label, detail, current]),
          make: () => this.item(row.id, label, detail, current),
        };
      }),
    );
  }

  /** The list's entry of row `id`: opening it edits the row as the store has it then. */
  private item(id: string, label: string, detail: string | undefined, current: boolean): HTMLElement {
    const open = h(
      "button",
      { type: "button", class: "row-main", "aria-current": current ? "true" : undefined },
      h("span", { class: "title", text: label }),
      detail === undefined ? undefined : h("span", { class: "muted detail", text: detail }),
    );
    open.addEventListener("click", () => {
      const row = this.spec.rows().find((r) => r.id === id);
      if (row) this.edit(row);
    });
    return h("li", { class: "row" }, open);
  }

  private edit(row: T): void {
    this.chosen = row;
    const controls: HTMLElement[] = [];
    for (const field of this.spec.fields) controls.push(this.control(field, row));
    this.form.replaceChildren(
      ...controls,
      h(
        "div",
        { class: "form-actions" },
        button("save", t("Save"), () => this.save(), { showLabel: true, primary: true }),
        this.spec.rows().some((r) => r.id === row.id)
          ? button("trash", t("Delete"), () => this.remove(row.id), { showLabel: true })
          : undefined,
        button("close", t("Cancel"), () => this.close(), { showLabel: true }),
      ),
    );
    this.refresh();
    this.form.querySelector<HTMLElement>("input, textarea, select")?.focus();
  }

  private control(field: Field<T>, row: T): HTMLElement {
    const id = `field-${this.spec.noun}-${field.name}`;
    // Necessary cast: a spec names only fields that hold text or a yes/no (T is generic here).
    const value = row[field.name] as unknown as Value;
    const hint = typeof field.hint === "function" ? field.hint(row) : field.hint;
    let input: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;
    if (field.kind === "textarea") input = h("textarea", { id, rows: 6 });
    else if (field.kind === "select") {
      input = h(
        "select",
        { id },
        ...(field.options?.() ?? []).map(([v, label]) => h("option", { value: v, text: label })),
      );
    } else
      input = h("input", {
        id,
        type: field.kind === "password" ? "password" : field.kind === "checkbox" ? "checkbox" : "text",
      });
    input.name = field.name;
    if (input instanceof HTMLInputElement && input.type === "checkbox") input.checked = value === true;
    else if (field.kind !== "password") input.value = String(value ?? "");
    if (field.kind === "password") input.autocomplete = "off";
    if (hint) input.setAttribute("aria-describedby", `${id}-hint`);
    const label = h("label", { for: id, text: field.label });
    return h(
      "div",
      { class: `field ${field.kind}` },
      field.kind === "checkbox" ? h("span", {}, input, label) : label,
      field.kind === "checkbox" ? undefined : input,
      hint ? h("div", { class: "hint muted", id: `${id}-hint`, text: hint }) : undefined,
    );
  }

  /** The row as the form has it now. */
  private read(): T | undefined {
    if (!this.chosen) return undefined;
    // Necessary casts: the form changes only the text and yes/no fields its spec names, so the row
    // read back has T's shape; the host checks it against the table's schema before keeping it.
    const row: Record<string, Value> = { ...(this.chosen as unknown as Record<string, Value>) };
    for (const field of this.spec.fields) {
      const input = this.form.elements.namedItem(field.name);
      if (input instanceof HTMLInputElement && input.type === "checkbox") row[field.name] = input.checked;
      else if (
        input instanceof HTMLInputElement ||
        input instanceof HTMLTextAreaElement ||
        input instanceof HTMLSelectElement
      ) {
        row[field.name] = input.value;
      }
    }
    return row as unknown as T;
  }

  private save(): void {
    const row = this.read();
    if (!row) return;
    this.spec.save(row);
    this.close();
  }

  private remove(id: string): void {
    this.spec.delete(id);
    this.close();
  }

  private close(): void {
    this.chosen = undefined;
    this.form.replaceChildren();
    this.refresh();
    this.list.querySelector<HTMLElement>(".row-main")?.focus();
  }
}

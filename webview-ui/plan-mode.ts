/**
 * Plan mode in the panel: the composer's "Plan" switch (the open conversation's mode, or the new
 * chat's, kept with the draft and sent with its first message), and under the finished answer of a
 * Plan conversation "Act on this plan" and "Edit plan".
 */
import type { Item } from "../src/protocol/rows";
import { button, h, icon } from "./dom";
import type { Panel } from "./items";
import { byKey } from "./panel-state";
import { t } from "../src/protocol/l10n";

/** Whether the open conversation is in Plan mode. */
function inPlan(panel: Panel): boolean {
  const { store } = panel;
  return store.tables.conversations.get(store.chat)?.mode === "plan";
}

/** The composer's switch of Plan mode. */
export class PlanSwitch {
  readonly element = h("button", {
    type: "button",
    class: "button plan-switch",
    "aria-pressed": "false",
  });
  /** The new chat's mode (the draft's), until its first message makes the conversation. */
  draft = false;
  /** The assistant whose mode the draft last took (undefined: take the chosen one's at the next refresh). */
  followed: string | undefined;

  constructor(
    private readonly panel: Panel,
    private readonly changed: () => void = () => undefined,
  ) {
    this.element.append(icon("checklist"), h("span", { text: t("Plan") }));
    this.element.addEventListener("click", () => this.toggle());
    this.refresh();
  }

  /** Switches Plan mode for the open conversation (through the host), or for the new chat. */
  toggle(): void {
    const { store, host } = this.panel;
    if (store.chat) host.post({ type: "mode", chat: store.chat, mode: this.on() ? "act" : "plan" });
    else {
      this.draft = !this.draft;
      this.refresh();
      this.changed();
    }
  }

  /** Whether the open conversation (or the new chat) is in Plan mode. */
  on(): boolean {
    return this.panel.store.chat ? inPlan(this.panel) : this.draft;
  }

  /**
   * A new chat starts as the chosen `assistant` says (its `mode`); once taken, the person's own
   * switch holds until another assistant is chosen.
   */
  follow(assistant: string): void {
    if (this.panel.store.chat || assistant === this.followed) return;
    this.followed = assistant;
    this.draft = this.panel.store.tables.assistants.get(assistant)?.mode === "plan";
  }

  /** Shows the open conversation's mode, or the new chat's. */
  refresh(): void {
    const on = this.on();
    this.element.setAttribute("aria-pressed", String(on));
    this.element.classList.toggle("on", on);
    this.element.title = on
      ? this.panel.store.chat
        ? t("Plan mode: on for this conversation (answers only read, then write a plan)")
        : t("Plan mode: on for the new conversation (answers only read, then write a plan)")
      : t("Plan mode: off (answers may change files and run commands, as your approvals say)");
  }
}

/** The last item of the open conversation, when it is the finished text of an answer. */
function finishedAnswer(panel: Panel): Item | undefined {
  let last: Item | undefined;
  for (const item of panel.store.tables.items.values())
    if (item.kind !== "plan" && (!last || byKey(item.id, last.id) > 0)) last = item;
  // Its words are not in the row (the host sends an answer's Markdown as blocks): the host checks them.
  return last?.kind === "text" && last.done ? last : undefined;
}

/** "Act on this plan" and "Edit plan", under the finished answer of a Plan conversation. */
export function planActions(panel: Panel): HTMLElement[] {
  if (!inPlan(panel) || panel.store.busy) return [];
  const answer = finishedAnswer(panel);
  if (!answer) return [];
  const { host } = panel;
  return [
    h(
      "div",
      // The answer's key in the markup: actions for another answer are made anew, not kept.
      { class: "plan-actions", role: "group", "aria-label": t("Plan"), "data-item": answer.id },
      button("play", t("Act on this plan"), () => host.post({ type: "act", item: answer.id }), {
        showLabel: true,
        primary: true,
      }),
      button("edit", t("Edit plan"), () => host.post({ type: "editPlan", item: answer.id }), {
        showLabel: true,
      }),
    ),
  ];
}

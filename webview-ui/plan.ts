/** The agent's plan, a Markdown checklist, shown as a checklist pinned above the transcript. */
import type { Item } from "../src/protocol/rows";
import { h, icon } from "./dom";
import { t } from "../src/protocol/l10n";

interface Step {
  text: string;
  done: boolean;
}

/** The steps of a Markdown checklist; other lines of the list count as steps not done. */
export function steps(markdown: string): Step[] {
  const found: Step[] = [];
  for (const line of markdown.split("\n")) {
    const box = /^\s*(?:[-*+]|\d+[.)])\s+\[([ xX])\]\s+(.*)$/.exec(line);
    if (box) found.push({ text: box[2].trim(), done: box[1] !== " " });
    else {
      const bullet = /^\s*(?:[-*+]|\d+[.)])\s+(.*)$/.exec(line);
      if (bullet) found.push({ text: bullet[1].trim(), done: false });
    }
  }
  return found;
}

/** The plan as a checklist with how many of its steps are done. */
export function planView(item: Item): HTMLElement {
  const list = steps(item.text);
  const done = list.filter((step) => step.done).length;
  const details = h(
    "details",
    { class: "plan", open: true },
    h(
      "summary",
      {},
      icon("checklist"),
      h("span", { text: t("Plan") }),
      h("span", { class: "muted", text: `${done}/${list.length}` }),
    ),
    h(
      "ul",
      { class: "steps", "aria-label": t("Plan steps") },
      ...list.map((step) =>
        h(
          "li",
          { class: step.done ? "done" : "" },
          icon(step.done ? "pass-filled" : "circle-large-outline"),
          h("span", { class: "visually-hidden", text: step.done ? t("Done: ") : t("To do: ") }),
          h("span", { text: step.text }),
        ),
      ),
    ),
  );
  return details;
}

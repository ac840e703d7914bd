/**
 * The subagents of a `delegate` call, under the call: one line with their rounds, tokens and cost
 * together, then each folded (its task, model, state and usage); opened, its transcript — each tool
 * it called with what came back, what it wrote — and its report. Everything a subagent wrote or read
 * is shown as text, never as markup: it came from files the model read.
 */
import type { Subagent, SubagentStep, Usage } from "../src/protocol/rows";
import { t } from "../src/protocol/l10n";
import { compactCount, fill, h, icon } from "./dom";
import { inputSummary } from "./call-summary";
import { usageLine } from "./usage-text";

const STATE_ICONS: Record<Subagent["state"], string> = {
  running: "loading codicon-modifier-spin",
  done: "check",
  failed: "error",
  stopped: "debug-stop",
};

/** The words of a subagent's state. */
function stateLabel(state: Subagent["state"]): string {
  switch (state) {
    case "running":
      return t("running");
    case "done":
      return t("done");
    case "failed":
      return t("failed");
    case "stopped":
      return t("stopped");
  }
}

/** The sum of the subagents' usages (a cost only when each knows its own). */
function together(subagents: readonly Subagent[]): Usage {
  const costs = subagents.map((s) => s.usage.cost);
  const known = costs.every((c) => c !== undefined);
  return {
    input: subagents.reduce((n, s) => n + s.usage.input, 0),
    output: subagents.reduce((n, s) => n + s.usage.output, 0),
    cached: subagents.reduce((n, s) => n + s.usage.cached, 0),
    ...(known ? { cost: Math.round(costs.reduce((n, c) => n + (c ?? 0), 0) * 1e6) / 1e6 } : {}),
  };
}

/** One step of a transcript: a call with its input and result, or what the subagent wrote. */
function stepView(step: SubagentStep): HTMLElement {
  if (step.kind === "text") return h("pre", { class: "raw subagent-text", text: step.text });
  return h(
    "div",
    { class: "subagent-step", "data-failed": step.failed ? "true" : undefined },
    h(
      "div",
      { class: "subagent-call" },
      icon(step.failed ? "error" : "tools"),
      h("span", { class: "name", text: step.name }),
      h("span", { class: "input", text: inputSummary(step.input) }),
    ),
    step.text ? h("pre", { class: "raw", text: step.text }) : undefined,
  );
}

/** One subagent, folded: its summary line, and its transcript and report when opened. */
class SubagentView {
  readonly element = h("details", { class: "subagent" });
  private readonly summary = h("summary", {});
  private readonly body = h("div", { class: "subagent-body" });

  constructor() {
    this.element.append(this.summary, this.body);
  }

  update(subagent: Subagent, index: number): void {
    this.element.dataset.state = subagent.state;
    const model = subagent.model || t("this answer's model");
    this.summary.replaceChildren(
      icon(STATE_ICONS[subagent.state]),
      h("span", { class: "task", text: subagent.task }),
      h("span", {
        class: "muted subagent-usage",
        text: [
          model,
          t("{0} rounds", subagent.rounds),
          usageLine(subagent.usage),
          stateLabel(subagent.state),
        ].join(" · "),
      }),
    );
    this.summary.setAttribute("aria-label", t("Subagent {0}: {1}", index + 1, subagent.task));
    fill(
      this.body,
      subagent.steps.length ? h("div", { class: "label", text: t("Steps") }) : undefined,
      ...subagent.steps.map(stepView),
      h("div", { class: "label", text: t("Report") }),
      h("pre", {
        class: "raw subagent-report",
        text: subagent.report || (subagent.state === "running" ? t("Still working…") : t("(no report)")),
      }),
    );
  }
}

/** The subagents of one call; the ones the person opened stay open as the rows change. */
export class SubagentsView {
  readonly element = h("div", { class: "subagents", hidden: true });
  private readonly head = h("div", { class: "subagents-head muted" });
  private readonly list = h("div", { class: "subagents-list" });
  private readonly views: SubagentView[] = [];

  constructor() {
    this.element.append(this.head, this.list);
  }

  update(subagents: readonly Subagent[] | undefined): void {
    const all = subagents ?? [];
    this.element.hidden = all.length === 0;
    if (!all.length) return;
    const rounds = all.reduce((n, s) => n + s.rounds, 0);
    this.head.replaceChildren(
      icon("organization"),
      h("span", {
        text: [
          t("{0} subagents", all.length),
          t("{0} rounds", compactCount(rounds)),
          usageLine(together(all)),
        ].join(" · "),
      }),
    );
    while (this.views.length < all.length) {
      const view = new SubagentView();
      this.views.push(view);
      this.list.append(view.element);
    }
    while (this.views.length > all.length) this.views.pop()?.element.remove();
    all.forEach((subagent, i) => this.views[i].update(subagent, i));
  }
}

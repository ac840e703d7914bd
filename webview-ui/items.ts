/** How each kind of item looks in the transcript. Each view updates itself in place when its row changes. */
import { CUT_NOTICE, LIMIT_NOTES, RUN_NOTE, type Item } from "../src/protocol/rows";
import { argsOrEmpty } from "../src/protocol/args";
import { chipsOfOutput } from "../src/protocol/sources";
import { UserView, askAgain, endsAnswer } from "./again";
import { BlockView } from "./item-blocks";
import { inputSummary } from "./call-summary";
import { append, button, fill, h, icon } from "./dom";
import type { PanelBridge } from "./bridge";
import { withInstructions } from "./instruction-chips";
import type { PanelState } from "./panel-state";
import { usageLine } from "./usage-text";
import { SubagentsView } from "./subagents";
import { t } from "../src/protocol/l10n";

/** What the views of items need: the replica, and the host to tell what the person does. */
export interface Panel {
  store: PanelState;
  host: PanelBridge;
}

/** One item on screen. */
export interface ItemView {
  readonly element: HTMLElement;
  /** Shows the row as it is now. */
  update(item: Item): void;
  /** Shows blocks that a patch changed (Markdown items only). */
  patched?(changed: number[]): void;
}

/** The view of an item of any kind, with the chips of the project instructions its answer was given. */
export function itemView(item: Item, panel: Panel): ItemView {
  return withInstructions(kindView(item, panel), item, panel);
}

/** The view of an item of its kind. */
function kindView(item: Item, panel: Panel): ItemView {
  switch (item.kind) {
    case "user":
      return new UserView(item, panel);
    case "text":
      return new AnswerView(item, panel);
    case "reasoning":
      return new ThinkingView(item, panel);
    case "call":
      return new CallView(item, panel);
    case "error":
      return new ErrorView(item, panel);
    case "summary":
      return new SummaryView(item);
    case "plan":
    case "retry":
    case "stop":
      return new NoteView(item);
  }
}

/** Most ids one `render` message asks for. */
const RENDER_BATCH = 500;

/**
 * Asks the host for the blocks of the Markdown item `id`, once: a long conversation opens with
 * the blocks of its newest items only. The items shown in one task are asked for together.
 */
function askBlocks(panel: Panel, id: string): void {
  const { store, host } = panel;
  if (store.asked.has(id)) return;
  store.asked.add(id);
  if (store.wanted.length === 0)
    queueMicrotask(() => {
      while (store.wanted.length) host.post({ type: "render", ids: store.wanted.splice(0, RENDER_BATCH) });
    });
  store.wanted.push(id);
}

/**
 * The body of a Markdown item: its blocks when the host sent some, else its text as written; an
 * item the host sent without its words (they travel as blocks) asks for its blocks.
 */
class Markdown {
  readonly element = h("div", { class: "body" });
  private blocks?: BlockView;

  constructor(
    private readonly id: string,
    private readonly panel: Panel,
  ) {}

  /** Shows the item's words; `done` false: it is streaming, and its blocks come as patches. */
  show(text: string, done: boolean): void {
    const blocks = this.panel.store.blocks.get(this.id);
    if (blocks) {
      if (!this.blocks) {
        this.blocks = new BlockView(this.id, blocks);
        this.element.replaceChildren(this.blocks.element);
      }
      return;
    }
    if (!text && done) askBlocks(this.panel, this.id);
    this.element.replaceChildren(h("div", { class: "plain", text }));
  }

  patched(changed: number[]): void {
    const blocks = this.panel.store.blocks.get(this.id);
    if (!blocks) return;
    if (this.blocks) this.blocks.update(blocks, changed);
    else this.show("", true);
  }
}

class AnswerView implements ItemView {
  readonly element = h("article", { class: "item answer", "aria-label": t("Answer") });
  private readonly body: Markdown;
  private readonly status = h("div", { class: "status" });
  private readonly actions = h("div", { class: "answer-actions" });

  constructor(
    item: Item,
    private readonly panel: Panel,
  ) {
    this.body = new Markdown(item.id, panel);
    this.element.append(this.body.element, this.status, this.actions);
    this.update(item);
  }

  update(item: Item): void {
    this.body.show(item.text, item.done);
    this.element.setAttribute("aria-busy", String(!item.done));
    interrupted(this.status, item, this.panel);
    // Regenerate under the last words of a finished answer; kept while the person chooses a model.
    const ends = endsAnswer(item, this.panel.store);
    if (!ends) this.actions.replaceChildren();
    else if (!this.actions.firstChild)
      this.actions.append(
        askAgain(this.panel, "Regenerate", (model) =>
          this.panel.host.post({ type: "regenerate", item: item.id, model }),
        ),
      );
    // What the answer took, small under it (on its last text item).
    if (item.usage && item.done)
      this.status.append(
        h("span", {
          class: "usage muted",
          text: usageLine(item.usage),
          title: t(
            "This answer read {0} tokens ({1} from the provider's cache) and wrote {2}.",
            item.usage.input,
            item.usage.cached,
            item.usage.output,
          ),
        }),
      );
  }

  patched(changed: number[]): void {
    this.body.patched(changed);
  }
}

/** Marks an answer cut short (a restart, or a run that ended without finishing it) with Retry. */
function interrupted(status: HTMLElement, item: Item, panel: Panel): void {
  const cut = item.state === "interrupted" || (!item.done && !panel.store.running.has(item.chat));
  status.replaceChildren();
  if (!cut) return;
  status.append(
    icon("debug-disconnect"),
    h("span", { text: t("Interrupted") }),
    askAgain(panel, "Retry", (model) => panel.host.post({ type: "retry", chat: item.chat, model })),
  );
}

class ThinkingView implements ItemView {
  readonly element = h("details", { class: "item thinking" });
  private readonly summary = h("summary", {});
  private readonly body: Markdown;
  private toggled = false;
  private showing = false;

  constructor(item: Item, panel: Panel) {
    this.body = new Markdown(item.id, panel);
    this.element.append(this.summary, this.body.element);
    // Only a toggle by the person counts; the panel's own opening and closing do not.
    this.element.addEventListener("toggle", () => {
      if (this.element.open !== this.showing) this.toggled = true;
    });
    this.update(item);
  }

  update(item: Item): void {
    this.summary.replaceChildren(
      icon(item.done ? "lightbulb" : "loading codicon-modifier-spin"),
      h("span", { text: item.done ? t("Thinking") : t("Thinking…") }),
    );
    if (!this.toggled) {
      this.showing = !item.done;
      this.element.open = this.showing;
    }
    this.body.show(item.text, item.done);
  }

  patched(changed: number[]): void {
    this.body.patched(changed);
  }
}

const STATE_ICONS: Record<string, string> = {
  running: "loading codicon-modifier-spin",
  approval: "shield",
  approved: "check",
  declined: "circle-slash",
  done: "check",
  failed: "error",
  interrupted: "debug-disconnect",
};

const STATE_LABELS: Record<string, string> = {
  running: t("running"),
  approval: t("waiting for approval"),
  approved: t("approved"),
  declined: t("declined"),
  done: t("done"),
  failed: t("failed"),
  interrupted: t("interrupted"),
};

/** The memory a `remember` call would keep, in full; undefined for another call. */
function memoryOf(item: Item): string | undefined {
  if (item.name !== "remember") return undefined;
  const text = argsOrEmpty(item.input).text;
  return typeof text === "string" ? text : undefined;
}

/** What the person is asked about a call: a memory is shown whole, since it joins later instructions. */
function question(item: Item): HTMLElement {
  const memory = memoryOf(item);
  // The host's question, whole: the call never cut, hidden characters written out, and why it asks.
  if (memory === undefined)
    return h("div", { class: "question", text: item.text || t("Run {0}?", item.name) });
  return h(
    "span",
    { class: "memory-question" },
    h("span", { class: "muted", text: t("Remember this for later conversations? ") }),
    h("q", { class: "memory-text", text: memory }),
  );
}

class CallView implements ItemView {
  readonly element = h("div", { class: "item call" });
  private readonly details = h("details", {});
  private readonly summary = h("summary", {});
  private readonly body = h("div", { class: "call-body" });
  private readonly decision = h("div", {
    class: "decision",
    role: "group",
    "aria-label": t("Approve this call"),
  });
  private readonly sources = h("div", { class: "chips", role: "list" });
  private readonly subagents = new SubagentsView();

  constructor(
    item: Item,
    private readonly panel: Panel,
  ) {
    this.details.append(this.summary, this.body);
    this.element.append(this.details, this.subagents.element, this.decision, this.sources);
    this.update(item);
  }

  update(item: Item): void {
    const state = item.state || "running";
    this.element.dataset.state = state;
    this.summary.replaceChildren(
      icon(STATE_ICONS[state] ?? "tools"),
      h("span", { class: "name", text: item.name }),
      h("span", { class: "input", text: inputSummary(item.input) }),
      h("span", { class: "state", text: STATE_LABELS[state] ?? state }),
    );
    fill(
      this.body,
      h("div", { class: "label", text: t("Input") }),
      h("pre", { class: "raw", text: item.input }),
      item.output ? h("div", { class: "label", text: t("Output") }) : undefined,
      item.output ? h("pre", { class: "raw", text: item.output }) : undefined,
      item.text ? h("div", { class: "label", text: state === "failed" ? t("Error") : t("Note") }) : undefined,
      item.text ? h("pre", { class: "raw", text: item.text }) : undefined,
      item.file
        ? button("go-to-file", item.file, () => this.panel.host.post({ type: "openFile", path: item.file }), {
            showLabel: true,
            className: "link",
          })
        : undefined,
    );
    this.subagents.update(item.subagents);
    this.decision.replaceChildren();
    if (state === "approval") {
      const decide =
        (yes: boolean, always: boolean, network = false) =>
        () =>
          this.panel.host.post({
            type: "decide",
            item: item.id,
            yes,
            always,
            ...(network ? { network } : {}),
          });
      // "Always allow" only where the question offers it, named by what it allows (this tool, a host, a rule);
      // "Allow with Network" only for a command that runs in the sandbox.
      const always = item.always;
      append(this.decision, [
        question(item),
        button("check", t("Allow"), decide(true, false), { showLabel: true, primary: true }),
        item.network
          ? button("globe", item.network, decide(true, false, true), { showLabel: true })
          : undefined,
        always ? button("check-all", always, decide(true, true), { showLabel: true }) : undefined,
        button("close", t("Decline"), decide(false, false), { showLabel: true }),
      ]);
    }
    // The host's rule: only the public pages a tool declared as its sources.
    const chips = chipsOfOutput(item.output);
    this.sources.replaceChildren(
      ...chips.map((chip) => {
        const element = button(
          "",
          chip.site,
          () => this.panel.host.post({ type: "openLink", url: chip.url }),
          {
            showLabel: true,
            className: "chip source",
          },
        );
        element.prepend(h("span", { class: "letter", "aria-hidden": "true", text: chip.letter }));
        element.title = chip.title;
        // The list item wraps the button: a role on the button itself would hide that it is one.
        return h("span", { role: "listitem" }, element);
      }),
    );
  }
}

class ErrorView implements ItemView {
  readonly element = h("div", { class: "item error", role: "alert" });

  constructor(
    item: Item,
    private readonly panel: Panel,
  ) {
    this.update(item);
  }

  update(item: Item): void {
    if (item.name === RUN_NOTE) {
      // Something the run said beside the model's words (a setting it could not apply): no failure.
      this.element.className = "item note";
      this.element.setAttribute("role", "status");
      this.element.replaceChildren(icon("info"), h("span", { class: "plain", text: item.text }));
      return;
    }
    if (LIMIT_NOTES.includes(item.name)) {
      // A limit ended the run (the item is named after it): a note, not a failure, and Continue goes on.
      this.element.className = "item note limit";
      this.element.setAttribute("role", "status");
      this.element.replaceChildren(
        icon("info"),
        h("span", { class: "plain", text: item.text }),
        button(
          "debug-continue",
          t("Continue"),
          () =>
            this.panel.host.post({
              type: "send",
              chat: item.chat,
              text: "Continue",
              files: [],
              model: item.model,
              assistant: "",
            }),
          { showLabel: true },
        ),
      );
      return;
    }
    if (item.name === CUT_NOTICE) {
      // The server cut a prompt without a word: a warning with its fix, and Retry asks again fitted.
      this.element.className = "item note window";
      this.element.setAttribute("role", "status");
      this.element.replaceChildren(
        icon("warning"),
        h("span", { class: "plain", text: item.text }),
        askAgain(this.panel, "Retry", (model) =>
          this.panel.host.post({ type: "retry", chat: item.chat, model }),
        ),
      );
      return;
    }
    this.element.className = "item error";
    this.element.setAttribute("role", "alert");
    this.element.replaceChildren(
      icon("error"),
      h("span", { class: "plain", text: item.text || t("The run failed.") }),
      askAgain(this.panel, "Retry", (model) =>
        this.panel.host.post({ type: "retry", chat: item.chat, model }),
      ),
    );
  }
}

/** The person's wishes ("again", "stop") as a quiet line; a plan item is shown pinned, not here. */
class NoteView implements ItemView {
  readonly element = h("div", { class: "item note" });

  constructor(item: Item) {
    this.update(item);
  }

  update(item: Item): void {
    const words =
      item.kind === "retry"
        ? item.model
          ? t("Asked again ({0})", item.model)
          : t("Asked again")
        : item.kind === "stop"
          ? t("Stopped")
          : t("Plan updated");
    this.element.replaceChildren(
      icon(item.kind === "stop" ? "debug-stop" : "refresh"),
      h("span", { text: words }),
    );
  }
}

/**
 * Where the model's view was condensed: a divider that says so, the summary the model wrote for
 * itself folded under it. The transcript above it stays whole; only the model sees less.
 */
class SummaryView implements ItemView {
  readonly element = h("details", { class: "item condensed" });

  constructor(item: Item) {
    this.update(item);
  }

  update(item: Item): void {
    this.element.replaceChildren(
      h("summary", {}, icon("fold"), h("span", { text: t("Earlier turns were summarised for the model") })),
      h("div", { class: "plain", text: item.text }),
    );
  }
}

/** The pages beside the chat: Assistants, Skills, Plugins and Memory. */
import type { Assistant, Memory, Plugin, Skill } from "../src/protocol/rows";
import { button, h } from "./dom";
import { RowEditor } from "./row-editor";
import type { Panel } from "./items";
import { byKey } from "./panel-state";
import { reconcile } from "./keyed-rows";
import { t } from "../src/protocol/l10n";
import { around } from "./page-l10n";

/** A fresh id for a row the person makes (time first, so new rows sort last). */
export function freshId(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

function modelOptions(panel: Panel): () => [string, string][] {
  return () => [
    ["", t("Default model")],
    ...[...panel.store.tables.choices.values()].map((c): [string, string] => [
      c.id,
      `${c.name || c.id} — ${c.group}`,
    ]),
  ];
}

function assistantOptions(panel: Panel): () => [string, string][] {
  return () =>
    [...panel.store.tables.assistants.values()].map((a): [string, string] => [a.id, a.name || a.id]);
}

/** The Assistants page: name, instructions, model, tools and the tools that wait for approval. */
export function assistantsPage(panel: Panel): RowEditor<Assistant> {
  return new RowEditor<Assistant>({
    title: t("Assistants"),
    noun: "assistant",
    words: { add: t("New assistant"), unnamed: t("(unnamed assistant)"), none: t("No assistants yet.") },
    fields: [
      { name: "name", label: t("Name"), kind: "text" },
      { name: "instructions", label: t("Instructions"), kind: "textarea" },
      { name: "model", label: t("Model"), kind: "select", options: modelOptions(panel) },
      {
        name: "tools",
        label: t("Tools"),
        kind: "text",
        hint: t("Tool names by commas; empty offers all tools."),
      },
      {
        name: "approve",
        label: t("Ask before"),
        kind: "text",
        hint: t("Tools that wait for your approval, by commas."),
      },
      {
        name: "mode",
        label: t("Starts in"),
        kind: "select",
        options: () => [
          ["", t("Act as usual")],
          ["plan", t("Plan mode")],
        ],
        hint: t(
          "In Plan mode it only reads, then writes a plan; as usual it may change files and run commands, as your approvals say. Each new conversation with it starts so; the composer's Plan switch changes one.",
        ),
      },
      {
        name: "source",
        label: t("Kept for"),
        kind: "select",
        options: () => [
          ["", t("This workspace")],
          ["user", t("Every workspace (yours)")],
        ],
        hint: (a) =>
          a.source === "repository"
            ? t("A repository's assistant, saved here, becomes yours.")
            : t("Yours for every workspace: kept in VS Code's storage for you, never in a repository."),
      },
    ],
    rows: () => [...panel.store.tables.assistants.values()],
    label: (a) => a.name,
    // Where it comes from: a repository's file runs with your model, approvals and (at most) your tools.
    detail: (a) => {
      if (a.source === "repository") {
        const named = (b: Assistant) => b.name.trim().toLowerCase() === a.name.trim().toLowerCase();
        const yours = [...panel.store.tables.assistants.values()].some(
          (b) => b.source !== "repository" && named(b),
        );
        // Never in place of the person's own: both are listed, and this one says so.
        return yours
          ? t("From the repository · named like yours, which stays as it is")
          : t("From the repository");
      }
      const model = a.model ? (panel.store.tables.choices.get(a.model)?.name ?? a.model) : t("Default model");
      return a.source === "user"
        ? t("Every workspace (yours) · {0}", model)
        : t("This workspace · {0}", model);
    },
    blank: () => ({
      id: freshId("assistant"),
      name: "",
      instructions: "",
      model: "",
      tools: "",
      approve: "",
    }),
    // The form's "Kept for" gives "" for this workspace: sent as no source; "Starts in" "" as no mode.
    save: ({ source, mode, ...assistant }) =>
      panel.host.post({
        type: "saveAssistant",
        assistant: {
          ...assistant,
          ...(source === "user" ? { source } : {}),
          ...(mode === "plan" ? { mode } : {}),
        },
      }),
    delete: (id) => panel.host.post({ type: "deleteAssistant", id }),
  });
}

/** The Skills page: name, when to use it, and its instructions. */
export function skillsPage(panel: Panel): RowEditor<Skill> {
  return new RowEditor<Skill>({
    title: t("Skills"),
    noun: "skill",
    words: { add: t("New skill"), unnamed: t("(unnamed skill)"), none: t("No skills yet.") },
    fields: [
      { name: "name", label: t("Name"), kind: "text" },
      {
        name: "description",
        label: t("When to use it"),
        kind: "text",
        hint: t("One sentence; every assistant sees it."),
      },
      { name: "body", label: t("Instructions (Markdown)"), kind: "textarea" },
    ],
    rows: () => [...panel.store.tables.skills.values()],
    label: (s) => s.name,
    detail: (s) => s.description,
    blank: () => ({ id: freshId("skill"), name: "", description: "", body: "" }),
    save: (skill) => panel.host.post({ type: "saveSkill", skill }),
    delete: (id) => panel.host.post({ type: "deleteSkill", id }),
  });
}

/** A plugin as its form edits it: the key typed (never shown back) and whether to remove the stored one. */
type PluginForm = Plugin & { key: string; removeKey: boolean };

/** The Plugins page: address, header, key (kept in the editor's secret storage) and status. */
export function pluginsPage(panel: Panel): RowEditor<PluginForm> {
  return new RowEditor<PluginForm>({
    title: t("Plugins"),
    noun: "plugin",
    words: { add: t("New plugin"), unnamed: t("(unnamed plugin)"), none: t("No plugins yet.") },
    fields: [
      { name: "name", label: t("Name"), kind: "text", hint: t("Its tools' prefix.") },
      { name: "address", label: t("Address"), kind: "text", hint: t("An https address of an MCP server.") },
      { name: "agent", label: t("Assistant"), kind: "select", options: assistantOptions(panel) },
      {
        name: "header",
        label: t("Key header"),
        kind: "text",
        hint: t("The header that carries the key, e.g. Authorization."),
      },
      {
        name: "key",
        label: t("Key"),
        kind: "password",
        hint: (p) => (p.secret ? t("A key is stored. Leave empty to keep it.") : t("No key stored.")),
      },
      { name: "removeKey", label: t("Remove the stored key"), kind: "checkbox" },
      { name: "enabled", label: t("Offer its tools"), kind: "checkbox" },
    ],
    rows: () => [...panel.store.tables.plugins.values()].map((p) => ({ ...p, key: "", removeKey: false })),
    label: (p) => p.name || p.address,
    detail: (p) =>
      [p.enabled ? "" : t("off"), p.secret ? t("key set") : "", p.status].filter(Boolean).join(" · "),
    blank: () => ({
      id: freshId("plugin"),
      agent: panel.store.assistant,
      name: "",
      address: "",
      header: "Authorization",
      secret: false,
      enabled: true,
      status: "",
      key: "",
      removeKey: false,
    }),
    save: (p) =>
      panel.host.post({
        type: "savePlugin",
        plugin: {
          id: p.id,
          agent: p.agent,
          name: p.name,
          address: p.address,
          header: p.header,
          enabled: p.enabled,
          ...(p.removeKey ? { key: "" } : p.key ? { key: p.key } : {}),
        },
      }),
    delete: (id) => panel.host.post({ type: "deletePlugin", id }),
  });
}

/** The longest memory, in characters (the host refuses a longer one). */
const MEMORY_LIMIT = 1000;

/**
 * The Memory page: what each assistant keeps of the person in this workspace, each with where it
 * came from and Forget; and a line to add one in the person's own words.
 */
export class MemoryPage {
  readonly element = h("section", { class: "page", "aria-label": t("Memory") });
  private readonly list = h("ul", { class: "rows", "aria-label": t("Memories") });
  private readonly agent = h("select", { "aria-label": t("Assistant that remembers") });
  private readonly text = h("input", {
    type: "text",
    "aria-label": t("Something to remember"),
    placeholder: t("Something to remember…"),
    maxlength: MEMORY_LIMIT,
  });

  constructor(
    private readonly panel: Panel,
    /** Shows the conversation `chat` in the Chat tab. */
    private readonly openChat: (chat: string) => void = () => undefined,
  ) {
    const add = h("form", { class: "memory-add" }, this.agent, this.text);
    add.append(button("add", t("Remember"), () => undefined, { showLabel: true, className: "submit" }));
    add.querySelector("button")?.setAttribute("type", "submit");
    add.addEventListener("submit", (event) => {
      event.preventDefault();
      const text = this.text.value.trim();
      if (!text || !this.agent.value) return;
      panel.host.post({ type: "remember", agent: this.agent.value, text });
      this.text.value = "";
    });
    this.element.append(
      h("div", { class: "page-head" }, h("h2", { text: t("Memory") })),
      h("p", {
        class: "muted",
        text: t(
          "What your assistants remember about you in this workspace. Each memory is part of the " +
            "instructions of every conversation with its assistant here. A memory an answer proposes " +
            "is kept only after you say yes.",
        ),
      }),
      add,
      this.list,
    );
  }

  /** Shows the memories and the assistants to add one to, by key: only what changed is made again. */
  refresh(): void {
    const { store } = this.panel;
    const assistants = [...store.tables.assistants.values()];
    const chosen = this.agent.value;
    reconcile(
      this.agent,
      assistants.map((a) => ({
        key: a.id,
        look: a.name,
        make: () => h("option", { value: a.id, text: a.name || a.id }),
      })),
    );
    if (assistants.some((a) => a.id === chosen)) this.agent.value = chosen;
    const memories = [...store.tables.memories.values()].sort(
      (a, b) => b.created - a.created || byKey(a.id, b.id),
    );
    if (memories.length === 0) {
      reconcile(this.list, [
        {
          key: "",
          look: "",
          make: () => h("li", { class: "muted blank", text: t("Nothing remembered yet.") }),
        },
      ]);
      return;
    }
    reconcile(
      this.list,
      memories.map((memory) => {
        const who = store.tables.assistants.get(memory.agent)?.name ?? "";
        const linked = store.tables.conversations.has(memory.source?.chat ?? "");
        return {
          key: memory.id,
          look: JSON.stringify([memory.text, who, memory.created, memory.source, linked]),
          make: () => this.row(memory, who),
        };
      }),
    );
  }

  private row(memory: Memory, who: string): HTMLElement {
    const when = memory.created ? new Date(memory.created).toLocaleDateString() : "";
    return h(
      "li",
      { class: "row memory" },
      h(
        "span",
        { class: "row-main static" },
        h("span", { class: "title", text: memory.text }),
        h("span", { class: "muted detail" }, [who, when].filter(Boolean).join(" · ")),
        this.source(memory),
      ),
      button("trash", t("Forget “{0}”", memory.text.slice(0, 40)), () =>
        this.panel.host.post({ type: "forget", id: memory.id }),
      ),
    );
  }

  /** Where MEMORY came from: its conversation (a link while it is there), the person, or not known. */
  private source(memory: Memory): HTMLElement {
    const line = h("span", { class: "muted detail source" });
    // A row from an older panel or host may lack it: shown as not known.
    const source = memory.source ?? { from: "", chat: "", title: "" };
    if (source.from === "person") line.textContent = t("Added by you");
    else if (source.from === "conversation") {
      const title = source.title || t("a conversation");
      if (this.panel.store.tables.conversations.has(source.chat)) {
        line.append(
          ...around(
            t("From {0}, when you said yes"),
            button("comment-discussion", title, () => this.openChat(source.chat), {
              showLabel: true,
              className: "link",
            }),
          ),
        );
      } else line.textContent = t("From “{0}”, a conversation since deleted, when you said yes", title);
    } else line.textContent = t("Where it came from was not recorded (kept before Tandem noted it)");
    return line;
  }
}

/**
 * The side panel's host half: it keeps one panel (a replica) in step with the store through the
 * protocol — a snapshot when the panel (re)loads, then only the rows that changed and, for Markdown
 * items, the patches of their changed blocks — and turns the person's actions into rows (their
 * messages: person-messages.ts; their edits of the small tables: row-edits.ts). No `vscode`
 * import: the editor fills `ViewHost` (file pickers, links, secrets).
 */
import { ItemStreams } from "./item-streams";
import {
  rowChanged,
  type FileRef,
  type HostMessage,
  type OpenChat,
  type PanelMessage,
} from "../../protocol/messages";
import { parsePanelMessage } from "../../protocol/validate";
import { sendAgain } from "./fork";
import { RestoreQuestions, restoreTo } from "./go-back";
import { Deletions } from "./deletions";
import { retried, stopped } from "../make";
import type { Item, Table } from "../row-schemas";
import type { Runner } from "../runner";
import type { Decision } from "../approval";
import type { Change, Store } from "../store";
import { fetchImage } from "../workspace";
import { PanelContext } from "./panel-context";
import { deleteAssistant, listed, personAssistants, saveAssistant } from "./assistants";
import { reason } from "../../protocol/reason";
import { PersonMessages } from "./person-messages";
import { editRow } from "./row-edits";

export type { ViewHost } from "./view-host";
import type { ViewHost } from "./view-host";
import { t } from "../../protocol/l10n";
import { setMode } from "./plan-actions";

/**
 * Items whose text is Markdown, sent as keyed blocks (a plan's checklist travels as text: the panel
 * reads its steps).
 */
const MARKDOWN = new Set(["text", "reasoning"]);
/**
 * The newest items of a conversation whose blocks are sent when it is opened; the panel asks for
 * the others' as it shows them (`render`), so opening 5,000 items renders a screenful, not all.
 */
export const OPEN_RENDERED = 60;
/** Tables the panel follows whole (items: only the open conversation's). */
const FOLLOWED: Table[] = ["conversations", "assistants", "skills", "plugins", "memories", "contexts"];

/** A Markdown item's row as the panel gets it: its words travel as blocks, not again in the row. */
function slim(item: Item): Item {
  return MARKDOWN.has(item.kind) ? { ...item, text: "" } : item;
}

export class PanelView {
  private chat = "";
  private fresh = true;
  /** The ids of the model choices the panel holds. */
  private choiceIds = new Set<string>();
  private readonly blocks: ItemStreams;
  private readonly unfollow: Array<() => void> = [];
  private items?: () => void;
  private readonly context: PanelContext;
  private readonly questions: RestoreQuestions;
  private readonly deletions: Deletions;
  private readonly messages: PersonMessages;

  constructor(
    private readonly store: Store,
    private readonly runner: Runner | undefined,
    private readonly host: ViewHost,
  ) {
    this.context = new PanelContext(host.context, (message) => host.send(message));
    this.questions = new RestoreQuestions((message) => host.send(message));
    this.deletions = new Deletions(
      store,
      (rows) =>
        void store
          .findItems((i) => i.files.length > 0, '"files":[{')
          .then((kept) => this.context.forget(rows, kept)),
    );
    this.messages = new PersonMessages(
      store,
      runner,
      host,
      this.context,
      () => this.chat,
      (chat) => this.openChat(chat),
    );
    this.blocks = new ItemStreams((patch) => host.send({ type: "blocks", patch }));
    for (const table of FOLLOWED) {
      this.unfollow.push(store.follow({ table }, (change) => this.rowChanged(change)));
    }
  }

  /** The conversation the panel shows ("" a new one). */
  get open(): string {
    return this.chat;
  }

  /** Handles a message from the panel; anything malformed is refused without effect. */
  async receive(raw: unknown): Promise<void> {
    const parsed = parsePanelMessage(raw);
    if (!parsed.ok) {
      this.host.refused?.(parsed.error);
      return;
    }
    await this.handle(parsed.message);
  }

  private async handle(m: PanelMessage): Promise<void> {
    switch (m.type) {
      case "ready":
        return this.snapshot();
      case "send":
        return this.messages.written(m);
      case "steer":
        return this.messages.steer(m);
      case "render":
        return this.render(m.ids);
      case "suggest":
        return this.context.suggest(m.query);
      case "prompts":
        return this.messages.listPrompts();
      case "paste":
        return this.context.paste(m.name, m.data);
      case "retry":
        this.store.put("items", retried(m.chat, m.model));
        return;
      case "resend":
      case "regenerate": {
        const chat = await sendAgain(this.store, this.host, m);
        if (chat && chat !== this.chat) this.openChat(chat);
        return;
      }
      case "restoreTo":
      case "changesSince": {
        const chat = await restoreTo(this.store, this.host, m, this.questions);
        if (chat) this.openChat(chat);
        return;
      }
      case "restoreAnswer":
        return this.questions.answered(m.ask, m.yes);
      case "stop":
        this.store.put("items", stopped(m.chat));
        return;
      case "decide":
        return this.decide(m.item, !m.yes ? false : m.network ? "network" : m.always ? "always" : true);
      case "newChat":
        return this.openChat("");
      case "openChat":
        return this.openChat(m.chat);
      case "rename":
      case "instructions":
      case "saveSkill":
      case "deleteSkill":
      case "savePlugin":
      case "deletePlugin":
      case "forget":
      case "remember":
        return editRow(this.store, this.host, m);
      case "mode":
        return setMode(this.store, m.chat, m.mode);
      case "act":
      case "editPlan":
        return this.messages.plan(m.type, m.item);
      case "deleteChat":
        return this.deleteChat(m.chat);
      case "undoDelete":
        return this.undoDelete(m.chat);
      case "saveAssistant":
        // Saved from the panel, a repository's assistant becomes the person's own.
        return saveAssistant(this.store, this.host, m.assistant);
      case "deleteAssistant":
        return deleteAssistant(this.store, this.host, m.id);
      case "attach":
        return this.attach(await this.host.pickFiles());
      case "drop":
        return this.attach(await this.host.dropped(m.uris));
      case "code":
        return this.host.code(m.action, m.code, m.language);
      case "openLink":
        return this.host.openLink(m.url);
      case "openFile":
        return this.host.openFile(m.path);
      case "loadImage":
        return this.loadImage(m.url);
      case "search":
        this.host.send({
          type: "found",
          query: m.query,
          chats: (await this.store.search(m.query)).map((c) => c.id),
        });
        return;
      case "command":
        return this.host.command(m.command);
      case "pendingAction":
        return this.host.pending?.(m.action, m.path);
    }
  }

  /** The person's message: a new conversation when none is open; durable before its run starts. */
  send(
    chat: string,
    text: string,
    files: FileRef[],
    model: string,
    assistant: string,
    instructions?: boolean,
    prompt?: Item["prompt"],
    mode?: "plan",
  ): Promise<string> {
    return this.messages.send(chat, text, files, model, assistant, instructions, prompt, mode);
  }

  /** The Plan mode command: the panel switches its Plan switch, as if the person clicked it. */
  togglePlan(): void {
    this.host.send({ type: "togglePlan" });
  }

  /** Fetches the remote image the person clicked and sends it to the panel, or why it failed. */
  private async loadImage(url: string): Promise<void> {
    let message: HostMessage;
    try {
      // Only the https images the renderer shows as placeholders; anything else is not asked for.
      if (!/^https:\/\//i.test(url)) throw new Error(t("only https images are loaded"));
      if (this.host.localOnly?.())
        throw new Error(
          t("Tandem works locally only (tandem.localOnly): images are not loaded from the network."),
        );
      message = { type: "image", url, data: await fetchImage(url, this.host.images) };
    } catch (error) {
      message = { type: "image", url, error: reason(error) };
    }
    this.host.send(message);
  }

  /**
   * The person's answer from the panel's buttons, through the runner's one `decide`. It counts only
   * for a call of the conversation the panel shows: the person saw no other question there.
   */
  private decide(key: string, decision: Decision): void {
    const row = this.store.get("items", key);
    if (row?.kind !== "call" || row.chat !== this.chat) return;
    // A window that only reads the conversations asks nothing: the one that writes them asks, and is answered there.
    if (!this.store.writable) {
      const text = t(
        "This conversation is answered in another window of this workspace: answer its question there.",
      );
      this.host.send({ type: "notice", level: "warning", text });
      return;
    }
    this.runner?.decide(key, decision);
  }

  /** Adds files to the composer (the editor's picker, the Explorer's menu, a drop). */
  attach(files: FileRef[]): void {
    if (files.length) this.host.send({ type: "attached", files });
  }

  /** Shows the conversation `chat` ("" a new one) and follows its items. */
  openChat(chat: string): void {
    this.show(chat);
    this.host.send({ type: "opened", ...this.openChatState() });
  }

  /** Follows the items of `chat` ("" none) from now on. */
  private show(chat: string): void {
    // The panel shows the transcript anew: a restore question it showed is gone from it.
    this.questions.cancel();
    this.fresh = false;
    this.items?.();
    this.blocks.dropAll();
    this.chat = chat;
    this.items = chat
      ? this.store.follow({ table: "items", where: { chat } }, (change) => this.itemChanged(change))
      : undefined;
  }

  private openChatState(): OpenChat {
    const items = this.chat ? this.store.items(this.chat) : [];
    const blocks: OpenChat["blocks"] = {};
    for (const item of items.slice(-OPEN_RENDERED)) {
      if (!MARKDOWN.has(item.kind)) continue;
      const stream = this.blocks.stream(item.id);
      stream.update(item.text);
      if (item.done) stream.end();
      blocks[item.id] = stream.blocks();
    }
    return { chat: this.chat, items: items.map(slim), blocks };
  }

  /** Sends the blocks of the open conversation's Markdown items `ids` that the panel shows without them. */
  private render(ids: string[]): void {
    if (!this.chat) return;
    for (const id of new Set(ids)) {
      const item = this.store.get("items", id);
      // Only the open conversation's, once: an item followed since gets its patches as it changes.
      if (!item || item.chat !== this.chat || !MARKDOWN.has(item.kind) || this.blocks.has(id)) continue;
      this.blocks.whole(item);
    }
  }

  /** Everything the panel shows, for a panel that (re)loads. */
  async snapshot(): Promise<void> {
    const [choices, model, repository, person] = await Promise.all([
      this.host.choices(),
      this.host.defaultModel(),
      this.host.assistants?.().catch(() => []) ?? [],
      personAssistants(this.host),
    ]);
    this.choiceIds = new Set(choices.map((c) => c.id));
    // One the person saved under a repository assistant's id is theirs now: it is listed once.
    const assistants = listed(this.store.rows("assistants"), person, repository);
    if (this.chat && !this.store.get("conversations", this.chat)) this.chat = "";
    // A panel that opens for the first time (a new window, a reload) goes on with the latest conversation.
    if (this.fresh && !this.chat) this.chat = this.store.conversations()[0]?.id ?? "";
    // The snapshot carries the open conversation: it is rendered and sent once.
    this.show(this.chat);
    const running = this.store
      .conversations()
      .filter((c) => this.runner?.running(c.id))
      .map((c) => c.id);
    this.host.send({
      type: "snapshot",
      ...this.openChatState(),
      conversations: this.store.conversations(),
      assistants,
      skills: this.store.rows("skills"),
      plugins: this.store.rows("plugins"),
      memories: this.store.rows("memories"),
      contexts: this.store.rows("contexts"),
      choices,
      running,
      configured: choices.length > 0 || model !== "",
      restore: this.host.restoreFilesTo !== undefined,
      assistant: this.store.rows("assistants")[0]?.id ?? "",
      model,
    });
  }

  private rowChanged(change: Change): void {
    this.host.send(rowChanged(change.table, change.key, change.row));
  }

  private itemChanged(change: Change<"items">): void {
    const row = change.row;
    if (!row) {
      this.blocks.drop(change.key);
      this.host.send({ type: "rows", table: "items", put: [], delete: [change.key] });
      return;
    }
    const before = change.before;
    if (MARKDOWN.has(row.kind)) {
      // Only the row's other fields travel as a row (its words go as blocks); the panel must know the
      // item before its first patch, so a new row goes first, and a finished one after its last patch.
      const changedBesideText =
        !before ||
        before.done !== row.done ||
        before.state !== row.state ||
        before.name !== row.name ||
        before.usage !== row.usage;
      const slimmed = slim(row);
      if (changedBesideText && !row.done)
        this.host.send({ type: "rows", table: "items", put: [slimmed], delete: [] });
      this.blocks.changed(row, change);
      if (row.done && changedBesideText)
        this.host.send({ type: "rows", table: "items", put: [slimmed], delete: [] });
      return;
    }
    this.host.send({ type: "rows", table: "items", put: [row], delete: [] });
  }

  /** Deletes a conversation; it can be brought back for a few seconds. */
  private deleteChat(chat: string): void {
    if (this.deletions.delete(chat) && this.chat === chat) this.openChat("");
  }

  private undoDelete(chat: string): void {
    if (this.deletions.undo(chat)) this.openChat(chat);
  }

  /** Sends the model choices again (the person's endpoints changed): the panel's lists follow. */
  async refreshChoices(): Promise<void> {
    const choices = await this.host.choices();
    const gone = [...this.choiceIds].filter((id) => !choices.some((c) => c.id === id));
    this.choiceIds = new Set(choices.map((c) => c.id));
    this.host.send({ type: "rows", table: "choices", put: choices, delete: gone });
  }

  /** Tells the panel that a conversation's run started or ended. */
  running(chat: string, running: boolean): void {
    this.host.send({ type: "running", chat, running });
  }

  dispose(): void {
    // A closed panel cannot be answered in: its question is answered no.
    this.questions.cancel();
    for (const stop of this.unfollow) stop();
    this.items?.();
    this.blocks.dropAll();
    // A panel closed within the undo window makes its deletions final.
    this.deletions.finishAll();
  }
}

/** The panel's replica of the host's tables: rows by id, the open conversation, who is running. */
import type { Block } from "../src/protocol/blocks";
import type { Snapshot } from "../src/protocol/messages";
import type { Item, TableName, Tables } from "../src/protocol/rows";
import { BlockText } from "./blocks";

/** Item keys in their order: numbers inside a key compare as numbers ("c.9" before "c.10"). */
export const byKey = new Intl.Collator("en", { numeric: true }).compare;

type TableMaps = { [T in TableName]: Map<string, Tables[T]> };

function maps(): TableMaps {
  return {
    assistants: new Map(),
    conversations: new Map(),
    items: new Map(),
    plugins: new Map(),
    skills: new Map(),
    memories: new Map(),
    contexts: new Map(),
    choices: new Map(),
  };
}

/** What the panel knows. Views read it; only `main` changes it, as host messages arrive. */
export class PanelState {
  tables: TableMaps = maps();
  /** The HTML blocks of the open conversation's Markdown items, by item id. */
  blocks = new Map<string, BlockText>();
  /** The open conversation ("" a new chat). */
  chat = "";
  running = new Set<string>();
  configured = true;
  /** The host's default assistant and model for a new message. */
  assistant = "";
  model = "";
  /** Whether the host can put the files back as they were before a message. */
  restore = false;

  /** Replaces everything with the host's snapshot. */
  load(snapshot: Snapshot): void {
    this.tables = maps();
    this.fill("assistants", snapshot.assistants);
    this.fill("conversations", snapshot.conversations);
    this.fill("plugins", snapshot.plugins);
    this.fill("skills", snapshot.skills);
    this.fill("memories", snapshot.memories);
    this.fill("contexts", snapshot.contexts);
    this.fill("choices", snapshot.choices);
    this.open(snapshot.chat, snapshot.items, snapshot.blocks);
    this.running = new Set(snapshot.running);
    this.configured = snapshot.configured;
    this.assistant = snapshot.assistant;
    this.model = snapshot.model;
    this.restore = snapshot.restore ?? false;
  }

  /** Makes `chat` the open conversation with its items. */
  open(chat: string, items: Item[], blocks: Record<string, Block[]>): void {
    this.chat = chat;
    this.tables.items = new Map();
    this.blocks = new Map();
    for (const item of items) if (item.chat === chat) this.tables.items.set(item.id, item);
    for (const [id, list] of Object.entries(blocks)) {
      if (this.tables.items.has(id)) this.blocks.set(id, new BlockText(list));
    }
  }

  /** Puts and deletes rows of one table; items of other conversations than the open one are ignored. */
  change<T extends TableName>(table: T, put: Tables[T][], deleted: string[]): void {
    const rows = this.tables[table];
    for (const row of put) {
      if (table === "items" && (row as Item).chat !== this.chat) continue;
      rows.set(row.id, row);
    }
    for (const id of deleted) {
      rows.delete(id);
      if (table === "items") this.blocks.delete(id);
    }
  }

  private fill<T extends TableName>(table: T, rows: Tables[T][]): void {
    for (const row of rows) this.tables[table].set(row.id, row);
  }

  /** Whether the open conversation's run is going on. */
  get busy(): boolean {
    return this.chat !== "" && this.running.has(this.chat);
  }

  /** Conversations newest first (their keys grow with time). */
  conversations(): Tables["conversations"][] {
    return [...this.tables.conversations.values()].sort((a, b) => byKey(b.id, a.id));
  }
}

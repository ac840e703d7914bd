/** The panel's replica of the host's tables: rows by id, the open conversation, who is running. */
import type { Block } from "../src/protocol/blocks";
import type { Snapshot } from "../src/protocol/messages";
import { byKey, parentOf } from "../src/protocol/keys";
import type { Item, TableName, Tables } from "../src/protocol/rows";
import { BlockText } from "./item-blocks";

// Keys in the store's order (made with the clock and a counter in fixed-width base 36).
export { byKey };

/** What one change of a table did: the rows put (with what they were), those deleted, and which fields differ. */
export interface RowsDelta<R> {
  put: { row: R; before: R | undefined }[];
  deleted: string[];
  /** The fields that differ on rows that were there before. */
  fields: Set<string>;
  /** Whether a row came or went (a list that shows the table changes its length). */
  joined: boolean;
}

/** The fields whose values differ between two versions of a row (nested values compared as JSON). */
function fieldsChanged<R extends object>(before: R, after: R): string[] {
  const a = before as Record<string, unknown>;
  const b = after as Record<string, unknown>;
  const names = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...names].filter((name) => {
    const x = a[name];
    const y = b[name];
    if (x === y) return false;
    return typeof x !== "object" || typeof y !== "object" || JSON.stringify(x) !== JSON.stringify(y);
  });
}

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
  /** The Markdown items whose blocks were asked of the host (see `askBlocks`), and those not yet posted. */
  readonly asked = new Set<string>();
  readonly wanted: string[] = [];
  /** The open conversation ("" a new chat). */
  chat = "";
  running = new Set<string>();
  configured = true;
  /** The host's default assistant and model for a new message. */
  assistant = "";
  model = "";
  /** Whether the host can put the files back as they were before a message. */
  restore = false;

  /** The last text item of each answer, by the key of the message it answers (made when first asked). */
  private lastTexts: Map<string, string> | undefined;

  /** The key of the last text item of the answer to `group` (undefined: it has none). */
  lastText(group: string): string | undefined {
    if (!this.lastTexts) {
      this.lastTexts = new Map();
      for (const item of this.tables.items.values()) this.noteText(item);
    }
    return this.lastTexts.get(group);
  }

  private noteText(item: Item): void {
    const group = parentOf(item.id);
    if (!this.lastTexts || item.kind !== "text" || !group) return;
    const last = this.lastTexts.get(group);
    if (last === undefined || byKey(item.id, last) > 0) this.lastTexts.set(group, item.id);
  }

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
    this.lastTexts = undefined;
    this.blocks = new Map();
    this.asked.clear();
    this.wanted.length = 0;
    for (const item of items) if (item.chat === chat) this.tables.items.set(item.id, item);
    for (const [id, list] of Object.entries(blocks)) {
      if (this.tables.items.has(id)) this.blocks.set(id, new BlockText(list));
    }
  }

  /**
   * Puts and deletes rows of one table and answers what changed, so that only the views that show
   * it follow; items of other conversations than the open one are ignored (and change nothing).
   */
  change<T extends TableName>(table: T, put: Tables[T][], deleted: string[]): RowsDelta<Tables[T]> {
    const rows = this.tables[table];
    const delta: RowsDelta<Tables[T]> = { put: [], deleted: [], fields: new Set(), joined: false };
    for (const row of put) {
      if (table === "items" && (row as Item).chat !== this.chat) continue;
      const before = rows.get(row.id);
      rows.set(row.id, row);
      if (table === "items") this.noteText(row as Item);
      if (!before) delta.joined = true;
      else for (const field of fieldsChanged(before, row)) delta.fields.add(field);
      delta.put.push({ row, before });
    }
    for (const id of deleted) {
      if (!rows.has(id)) continue;
      rows.delete(id);
      delta.joined = true;
      delta.deleted.push(id);
      if (table === "items") {
        this.blocks.delete(id);
        this.lastTexts = undefined;
      }
    }
    return delta;
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

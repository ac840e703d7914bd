/**
 * The messages between the host and the side panel: discriminated unions on `type`, shared by both
 * sides. Type-only: the webview bundle imports this file and must carry no runtime code from it.
 */
import type { Block, Patch } from "./blocks";
import type {
  Assistant,
  Choice,
  Context,
  Conversation,
  Item,
  Memory,
  Plugin,
  Skill,
  TableName,
  Tables,
} from "./rows";

export type { FileRef } from "./file-refs";
import type { FileRef } from "./file-refs";

/** The open conversation: its items in key order and the rendered blocks of those shown as Markdown. */
export interface OpenChat {
  /** The conversation's id; "" when none is open (a new chat). */
  chat: string;
  items: Item[];
  /** Item id → its HTML blocks in order. */
  blocks: Record<string, Block[]>;
  /** The item to show in the middle of the view (a search's hit, a message restored to); absent: the newest. */
  at?: string;
}

/** Everything the panel shows, sent when it (re)loads. */
export interface Snapshot extends OpenChat {
  type: "snapshot";
  conversations: Conversation[];
  assistants: Assistant[];
  skills: Skill[];
  plugins: Plugin[];
  memories: Memory[];
  choices: Choice[];
  contexts: Context[];
  /** The conversations whose run is going on. */
  running: string[];
  /** Whether a model is set up; when false the panel explains how. */
  configured: boolean;
  /** The assistant and model a new message goes to by default ("" the default model). */
  assistant: string;
  model: string;
  /** Whether the host can put the files back as they were before a message (offered on edit). */
  restore?: boolean;
}

/** Rows of one table that changed: put replaces or adds by id, delete removes by id. */
export type RowsChanged<K extends TableName = TableName> = {
  [T in K]: { type: "rows"; table: T; put: Tables[T][]; delete: string[] };
}[K];

/** The message that one row of `table` changed: `row` put, or (null) the row `key` deleted. */
export function rowChanged<T extends TableName>(
  table: T,
  key: string,
  row: Tables[T] | null,
): RowsChanged<T> {
  return { type: "rows", table, put: row ? [row] : [], delete: row ? [] : [key] };
}

/** The blocks of one item that changed since the last send; `patch.key` is the item's id. */
export interface BlocksPatched {
  type: "blocks";
  patch: Patch;
}

/** The host opened a conversation (the person asked, or a new chat was made). */
export interface ChatOpened extends OpenChat {
  type: "opened";
}

/** A run started or ended. */
export interface RunningChanged {
  type: "running";
  chat: string;
  running: boolean;
}

/** Something the person should know, shown as a line above the composer. */
export interface Notice {
  type: "notice";
  level: "info" | "warning" | "error";
  text: string;
}

/** Files the host's picker (or a drop) added to the composer. */
export interface FilesAttached {
  type: "attached";
  files: FileRef[];
}

/** The conversations whose title or text matches `query`, newest first. */
export interface SearchFound {
  type: "found";
  query: string;
  chats: string[];
}

/** Whether a model is set up changed (a key was set, an endpoint configured). */
export interface ConfiguredChanged {
  type: "configured";
  configured: boolean;
}

/**
 * The answer to `loadImage`: the image at `url` as a `data:` URL (PNG, JPEG, GIF or WebP), or why
 * it could not be loaded, in words for the person.
 */
export type ImageLoaded =
  { type: "image"; url: string; data: string } | { type: "image"; url: string; error: string };

/** A file the agent changed whose change the person has not kept or undone yet. */
export interface PendingFile {
  /** The file's absolute path (how the host names it back). */
  path: string;
  /** Its path relative to the workspace, as the person reads it. */
  shown: string;
}

/** The files with pending changes, sent whenever the list changes (and when the panel is ready). */
export interface PendingChanged {
  type: "pending";
  files: PendingFile[];
}

/** What the panel's pending bar asks: review (one file, or pick one), keep all, undo all. */
export type PendingAction = "review" | "keepAll" | "undoAll";

/**
 * Something the person can pull into a message with `@`: a workspace file or folder (a relative
 * path), a symbol (where the editor says it is), or what the editor holds when the message is sent
 * (the selection, the open editors, the problems, the last terminal output). The host resolves each
 * into what the model receives; the panel only names them.
 */
export type ContextRef =
  | { kind: "file"; path: string }
  | { kind: "folder"; path: string }
  | { kind: "symbol"; name: string; path: string; line: number }
  | { kind: "selection" }
  | { kind: "editors" }
  | { kind: "problems" }
  | { kind: "terminal" };

/** The kind of a context reference. */
export type ContextKind = ContextRef["kind"];

/** One entry of the `@` picker: the reference it adds, the words its option and its chip show. */
export interface ContextEntry {
  ref: ContextRef;
  label: string;
  /** A second line: the folder of a file, the file of a symbol, why an entry holds nothing. */
  detail: string;
  /** True when the entry holds nothing now (no selection, no terminal output read): shown, not chosen. */
  disabled: boolean;
}

/** The answer to `suggest`: the picker's entries for `query`. */
export interface ContextSuggested {
  type: "suggestions";
  query: string;
  entries: ContextEntry[];
}

/** A prompt file the person can start with `/name`, as the composer's `/` menu lists it. */
export interface PromptEntry {
  name: string;
  description: string;
  /** What to give after the name ("" nothing in particular). */
  hint: string;
  /** "workspace": the repository's; "person": the person's own. */
  source: "workspace" | "person";
}

/** The answer to `prompts`: every prompt file the person can start here. */
export interface PromptsListed {
  type: "prompts";
  prompts: PromptEntry[];
}

/**
 * The host asks the person, under their message `item`, whether to restore the files (the words
 * `question` name how many change); the panel answers `restoreAnswer` with the same `ask`.
 */
export interface RestoreAsked {
  type: "restoreQuestion";
  item: string;
  /** A fresh id per question: only the answer naming it counts. */
  ask: string;
  question: string;
}

/**
 * The host finished the panel's `restoreTo` for the message `item`: `ok` when something was
 * restored, and in words (`text`) what was, or why nothing was; the panel shows it under the message.
 */
export interface RestoreDone {
  type: "restoreDone";
  item: string;
  ok: boolean;
  text: string;
}

/** The editor's Plan mode command: the panel switches its Plan switch (the open conversation's, or the new chat's). */
export interface PlanToggled {
  type: "togglePlan";
}

/** A message from the host to the panel. */
export type HostMessage =
  | Snapshot
  | RowsChanged
  | BlocksPatched
  | ChatOpened
  | RunningChanged
  | Notice
  | FilesAttached
  | SearchFound
  | ConfiguredChanged
  | ImageLoaded
  | PendingChanged
  | ContextSuggested
  | PromptsListed
  | RestoreAsked
  | RestoreDone
  | PlanToggled;

/** An assistant as the panel edits it. */
export type AssistantEdit = Assistant;

/** A plugin as the panel edits it: `key` absent keeps the stored key, "" removes it. */
export interface PluginEdit {
  id: string;
  agent: string;
  name: string;
  address: string;
  header: string;
  enabled: boolean;
  key?: string;
}

/** What a code block's button asks (the `data-action` the host renderer writes). */
export type CodeAction = "copy" | "insert" | "new-file";

/** A command the empty state links to. */
export type PanelCommand = "setApiKey" | "openSettings";

/** A message from the panel to the host (validated with zod on the host before use). */
export type PanelMessage =
  | { type: "ready" }
  /**
   * The person's message; `chat` "" starts a new conversation; `model` "" is the assistant's;
   * `context` the references picked with `@`, resolved by the host when it receives the message;
   * `instructions` false: a new conversation starts with the project's instructions switched off;
   * `mode` "plan": a new conversation starts in Plan mode.
   */
  | {
      type: "send";
      chat: string;
      text: string;
      files: FileRef[];
      model: string;
      assistant: string;
      context?: ContextRef[];
      instructions?: boolean;
      mode?: "plan";
    }
  /**
   * A queued message sent now ("Send now"), to join the run of `chat` going on at its next round
   * boundary (steering); with no run going on, or as a `/` command, it is sent as an ordinary message.
   */
  | {
      type: "steer";
      chat: string;
      text: string;
      files: FileRef[];
      model: string;
      context?: ContextRef[];
    }
  /**
   * The panel shows Markdown items whose blocks it does not have (a long conversation is opened with
   * the blocks of its newest items only); the host answers a `blocks` patch for each.
   */
  | { type: "render"; ids: string[] }
  /** The `@` picker asks for its entries matching `query`; the host answers `suggestions`. */
  | { type: "suggest"; query: string }
  /** The composer's `/` menu asks for the prompt files; the host answers `prompts`. */
  | { type: "prompts" }
  /** An image pasted into the message box, as a `data:` URL; the host keeps it and answers `attached`. */
  | { type: "paste"; name: string; data: string }
  | { type: "retry"; chat: string; model: string }
  /**
   * The person's message `item` edited and sent again: the conversation forks there (a new one with
   * what came before and this message); `restore` first puts the files back as they were then.
   */
  | { type: "resend"; item: string; text: string; files: FileRef[]; model: string; restore: boolean }
  /** The answer to `item` (a message, a retry, or an item of its answer) again, from `model` ("" the same). */
  | { type: "regenerate"; item: string; model: string }
  /**
   * Back to the person's message `item`: its `files` as they were before its answer (a checkpoint),
   * and/or the `conversation` as it was before it (a new conversation holding what came before).
   */
  | { type: "restoreTo"; item: string; files: boolean; conversation: boolean }
  /** The person's answer to the `restoreQuestion` whose id is `ask`: restore (yes) or not. */
  | { type: "restoreAnswer"; ask: string; yes: boolean }
  /** Shows, in the editor's diff, what changed in the files since the checkpoint of the message `item`. */
  | { type: "changesSince"; item: string }
  | { type: "stop"; chat: string }
  /**
   * A decision on the call item `item`; `always` lets the tool run without asking from now on; `network` lets
   * this run of a sandboxed command reach the network (what the row's "Allow with Network" offers).
   */
  | { type: "decide"; item: string; yes: boolean; always: boolean; network?: boolean }
  | { type: "newChat" }
  | { type: "openChat"; chat: string }
  | { type: "rename"; chat: string; title: string }
  /** Switches the project's instructions (AGENTS.md…) on or off for the conversation `chat`. */
  | { type: "instructions"; chat: string; on: boolean }
  /** Puts the conversation `chat` in Plan mode (its answers only read) or back to acting as usual. */
  | { type: "mode"; chat: string; mode: "plan" | "act" }
  /**
   * "Act on this plan": the conversation of the answer's text item `item` leaves Plan mode and is
   * sent the plan (as edited in the editor, else the answer's text) as its next message.
   */
  | { type: "act"; item: string }
  /** "Edit plan": the plan of the answer's text item `item` opens in the editor, as a Markdown file. */
  | { type: "editPlan"; item: string }
  | { type: "deleteChat"; chat: string }
  | { type: "undoDelete"; chat: string }
  | { type: "saveAssistant"; assistant: AssistantEdit }
  | { type: "deleteAssistant"; id: string }
  | { type: "saveSkill"; skill: Skill }
  | { type: "deleteSkill"; id: string }
  | { type: "savePlugin"; plugin: PluginEdit }
  | { type: "deletePlugin"; id: string }
  | { type: "forget"; id: string }
  /** A memory in the person's own words, for the assistant `agent`. */
  | { type: "remember"; agent: string; text: string }
  /** Asks the host to show its file picker; it answers with `attached`. */
  | { type: "attach" }
  /** Files dropped on the composer (URIs or workspace-relative paths); the host answers with `attached`. */
  | { type: "drop"; uris: string[] }
  | { type: "code"; action: CodeAction; code: string; language: string }
  | { type: "openLink"; url: string }
  | { type: "openFile"; path: string }
  /** The person clicked a remote image's placeholder: the host fetches it (guarded) and answers `image`. */
  | { type: "loadImage"; url: string }
  | { type: "search"; query: string }
  | { type: "command"; command: PanelCommand }
  /** The pending bar: review (the file `path`, or pick one when ""), keep all or undo all. */
  | { type: "pendingAction"; action: PendingAction; path: string };

/** The `type` of a panel message. */
export type PanelMessageType = PanelMessage["type"];

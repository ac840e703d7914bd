/** What the side panel's host half (`PanelView`) needs from the editor: the editor fills it, tests fake it. */
import type { CodeAction, FileRef, HostMessage, PanelCommand, PendingAction } from "../../protocol/messages";
import type { Assistant, Choice, Item } from "../row-schemas";
import type { PersonKept } from "./assistants";
import type { PanelContextHost } from "./panel-context";
import type { ImageOptions } from "../workspace";
import type { PromptFiles } from "../assistants";

/** What the panel's host half needs from the editor. */
export interface ViewHost {
  send(message: HostMessage): void;
  choices(): Promise<Choice[]>;
  /** The model a new message goes to when the person picks none. */
  defaultModel(): Promise<string>;
  pickFiles(): Promise<FileRef[]>;
  dropped(uris: string[]): Promise<FileRef[]>;
  code(action: CodeAction, code: string, language: string): void;
  openLink(url: string): void;
  openFile(path: string): void;
  command(command: PanelCommand): void;
  /** Keeps a plugin's key in the editor's secret storage ("" removes it). */
  pluginKey(id: string, key: string): Promise<void>;
  /** Told a message that was not understood, for the log. */
  refused?(why: string): void;
  /** The pending bar's review, keep all or undo all (`path` "" for no file in particular). */
  pending?(action: PendingAction, path: string): void;
  /** How remote images are fetched (tests route a public name to a local server). */
  images?: ImageOptions;
  /** True while the person has Tandem work locally only (`tandem.localOnly`): no remote image is loaded. */
  localOnly?(): boolean;
  /**
   * Puts the workspace's files back as they were before the answer to the person's `message` ran
   * (its checkpoint); resolves with what was done, in words for the person; throws when it cannot
   * or the person says no. `ask` puts the confirmation to the person (in the panel); without it the
   * editor asks its own way. Absent, the panel does not offer it.
   */
  restoreFilesTo?(message: Item, ask?: (question: string) => Promise<boolean>): Promise<string>;
  /** Shows what changed in the files since the checkpoint of the person's `message` (a sentence when there is nothing to show). */
  changesSince?(message: Item): Promise<string | undefined>;
  /** What the editor knows for the `@` picker, and where kept context goes (none: no `@` context). */
  context?: PanelContextHost;
  /** The repository's assistants (`.tandem/assistants/*.md`), listed beside the workspace's. */
  assistants?(): Promise<Assistant[]>;
  /** The prompt files of the workspace and the person (absent: none; `/name` is sent as written). */
  prompts?(): Promise<PromptFiles>;
  /**
   * Plan files in the extension's storage (never the workspace), by file name: `edit` writes TEXT
   * unless the file is there already and opens it in the editor; `saved` reads it as last saved
   * (undefined: never written). Absent, a plan cannot be edited: "Act on this plan" takes the answer's text.
   */
  plans?: {
    edit(name: string, text: string): Promise<void>;
    saved(name: string): Promise<string | undefined>;
  };
  /** The person's own assistants for every workspace (absent: none are offered). */
  person?: PersonKept;
}

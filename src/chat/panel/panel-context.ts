/**
 * The panel's `@` context and pasted images, on the host: the picker's entries, the references of a
 * message resolved into its files, a pasted image kept. Each answer or refusal goes back to the panel.
 */
import type { FileRef } from "../../protocol/file-refs";
import type { ContextRef, HostMessage } from "../../protocol/messages";
import { Kept, resolveRefs, type EditorContext } from "./context-refs";
import { suggest } from "./context-suggest";
import { t } from "../../protocol/l10n";
import { forgetKept } from "./context-sweep";
import type { Item } from "../row-schemas";
import { reason } from "../../protocol/reason";

/** What the editor gives the panel's context: what it knows, and where kept files go. */
export interface PanelContextHost {
  editor: EditorContext;
  /** The extension's storage folder (kept files go in its `context` folder). */
  folder: string;
}

/** The panel's context requests, answered through `send`. */
export class PanelContext {
  private readonly kept?: Kept;

  constructor(
    private readonly host: PanelContextHost | undefined,
    private readonly send: (message: HostMessage) => void,
  ) {
    if (host) this.kept = new Kept(host.folder);
  }

  /**
   * Removes the kept files of a deleted conversation's `rows` that no item of `remaining` refers
   * to, once the deletion is final (the person can no longer bring it back).
   */
  async forget(rows: readonly Item[], remaining: Iterable<Item>): Promise<void> {
    if (!this.host) return;
    await forgetKept(this.host.folder, rows, remaining).catch((error: unknown) =>
      console.error(`Tandem: a deleted conversation's context files stay: ${String(error)}`),
    );
  }

  /** Answers the picker with its entries for `query`. */
  async suggest(query: string): Promise<void> {
    const entries = this.host ? await suggest(this.host.editor, query) : [];
    this.send({ type: "suggestions", query, entries });
  }

  /** Keeps a pasted image and attaches it to the composer, or says why not. */
  async paste(name: string, data: string): Promise<void> {
    try {
      if (!this.kept) throw new Error("this editor keeps no pasted images");
      const file = await this.kept.image(data, name);
      this.send({ type: "attached", files: [file] });
    } catch (error) {
      const why = reason(error);
      this.send({
        type: "notice",
        level: "warning",
        text: t("Tandem did not attach the pasted image: {0}.", why),
      });
    }
  }

  /** Keeps TEXT as a text file of a message, shown as NAME; throws when this editor keeps none. */
  async keepText(name: string, text: string): Promise<FileRef> {
    if (!this.kept) throw new Error(t("this editor keeps no files for messages"));
    return this.kept.keep(name, "md", text);
  }

  /** What the editor knows (undefined: a host without one). */
  get editor(): EditorContext | undefined {
    return this.host?.editor;
  }

  /** The files `refs` become; each one refused is told to the panel, and the others go on. */
  async resolve(refs: readonly ContextRef[]): Promise<FileRef[]> {
    if (!refs.length) return [];
    if (!this.host || !this.kept) {
      this.send({ type: "notice", level: "warning", text: t("Tandem cannot add context in this editor.") });
      return [];
    }
    const { files, refused } = await resolveRefs(refs, this.host.editor, this.kept);
    if (refused.length) this.send({ type: "notice", level: "warning", text: refused.join("\n") });
    return files;
  }
}

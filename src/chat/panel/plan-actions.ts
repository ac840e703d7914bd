/**
 * Plan mode from the panel: the switch of a conversation's mode, the plan of a finished answer
 * opened in the editor as a Markdown file (in the extension's storage, never the workspace), and
 * "Act on this plan": out of Plan, with the plan (as the person saved it) as the next message.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { t } from "../../protocol/l10n";
import type { Store } from "../store";
import type { ViewHost } from "./view-host";

/** Plan files kept in FOLDER (the extension's storage), each opened in the editor with OPEN. */
export function planFiles(
  folder: string,
  open: (file: string) => Promise<void>,
): NonNullable<ViewHost["plans"]> {
  return {
    async edit(name, text) {
      const file = join(folder, name);
      await mkdir(folder, { recursive: true });
      // An edited plan opened again is opened as the person left it, not written over.
      await writeFile(file, text, { flag: "wx" }).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== "EEXIST") throw error;
      });
      await open(file);
    },
    async saved(name) {
      return readFile(join(folder, name), "utf8").catch(() => undefined);
    },
  };
}

/** Puts CHAT in Plan mode, or back to acting as usual (the field is dropped: rows of before load alike). */
export function setMode(store: Store, chat: string, mode: "plan" | "act"): void {
  const row = store.get("conversations", chat);
  if (!row) return;
  const { mode: _old, ...rest } = row;
  store.put("conversations", mode === "plan" ? { ...rest, mode } : rest);
}

/** The plan file's name for the answer's text item KEY (a key is letters, digits, dots and dashes). */
export function planName(key: string): string {
  return `plan-${key.replace(/[^\w.-]/g, "_")}.md`;
}

/** The answer's text item KEY in a conversation, or why it cannot be a plan. */
function planItem(store: Store, key: string): { chat: string; text: string } {
  const item = store.get("items", key);
  if (!item || item.kind !== "text" || !item.done || !item.text.trim())
    throw new Error(t("That answer is not a finished plan."));
  return { chat: item.chat, text: item.text };
}

/** Opens the plan of the text item KEY in the editor (the file as last saved when there is one). */
export async function editPlan(store: Store, host: ViewHost, key: string): Promise<void> {
  const { text } = planItem(store, key);
  if (!host.plans) throw new Error(t("Plans cannot be edited here."));
  await host.plans.edit(planName(key), text);
}

/** What "Act on this plan" sends for the text item KEY: its chat and the message, the plan as saved. */
export async function actOn(
  store: Store,
  host: ViewHost,
  key: string,
): Promise<{ chat: string; text: string }> {
  const { chat, text } = planItem(store, key);
  const saved = (await host.plans?.saved(planName(key)))?.trim();
  return { chat, text: `${t("Act on this plan:")}\n\n${saved || text}` };
}

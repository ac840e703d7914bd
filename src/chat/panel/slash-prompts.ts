/**
 * The panel's prompt files: the composer's `/` menu, and a message that starts one (`/name args`)
 * turned into what its answer is given — the file's text with the arguments, kept as a text file of
 * the message — with what the file narrows the tools to, and what it asked for and did not get.
 */
import path from "node:path";
import type { FileRef, PromptEntry } from "../../protocol/messages";
import type { Choice, Item } from "../row-schemas";
import { promptNamed, slashCommand, usePrompt, type PromptFiles } from "../assistants";
import type { PanelContext } from "./panel-context";
import type { EditorContext } from "./context-refs";

/** What a message that starts a prompt file becomes. */
export interface Started {
  /** The message's files, with the prompt file's text added. */
  files: FileRef[];
  /** The model it goes to. */
  model: string;
  prompt: NonNullable<Item["prompt"]>;
  /** What the file asked for and did not get, for the person. */
  notes: string[];
}

/** The `/` menu's entries for PROMPTS. */
export function promptEntries(prompts: PromptFiles): PromptEntry[] {
  return prompts.prompts.map(({ name, description, hint, source }) => ({ name, description, hint, source }));
}

/**
 * What the message TEXT becomes when it starts one of PROMPTS, or undefined when it starts none (it
 * is sent as written). MODEL is the composer's, CHOICES the person's models.
 */
export async function startPrompt(
  text: string,
  files: FileRef[],
  model: string,
  prompts: PromptFiles,
  choices: readonly Choice[],
  context: PanelContext,
  editor?: EditorContext,
): Promise<Started | undefined> {
  const command = slashCommand(text);
  const prompt = command && promptNamed(prompts.prompts, command.name);
  if (!command || !prompt) return undefined;
  const root = editor?.root();
  const selection = editor?.selection();
  const use = usePrompt(prompt, command.args, choices, {
    workspaceFolder: root,
    file: root && selection ? path.join(root, selection.path) : undefined,
    selection: selection?.text,
  });
  const kept = await context.keepText(`${prompt.name}.prompt.md`, use.text);
  const { tools, readOnly, noCommands } = use;
  return {
    files: [...files, kept],
    model: use.model ?? model,
    prompt: { name: prompt.name, tools, readOnly, noCommands },
    notes: use.notes,
  };
}

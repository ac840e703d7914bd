/**
 * The person's own assistants, kept for every workspace: one JSON file in the extension's global
 * storage (VS Code's per-user, per-profile folder; no repository can write there, and it goes
 * with the extension). They are the person's, like a workspace's assistants: their model, tools
 * and approval list are followed. Each window reads the file at each use, so an edit in one
 * window reaches the others; a write replaces the file atomically.
 */
import { t } from "../../protocol/l10n";
import { mkdir, readFile } from "node:fs/promises";
import { dirname } from "node:path";
import { z } from "zod";
import { assistantRow, type Assistant } from "../row-schemas";
import { writeAtomic } from "../store";

/** The prefix of a person's assistant's id: `user:` and the id it was made with. */
export const PERSON = "user:";

/** The file's shape: a version and the assistants (a row that does not read is left out, said). */
const fileShape = z.object({ version: z.literal(1), assistants: z.array(z.unknown()) });

/** The person's assistants kept in the file `file` (made when the first is saved). */
export class PersonAssistants {
  constructor(private readonly file: string) {}

  /** The assistants of the file, each with its `user:` id and source "user"; throws saying why the file cannot be read. */
  async list(): Promise<Assistant[]> {
    let text: string;
    try {
      text = await readFile(this.file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw error;
    }
    let parsed: z.infer<typeof fileShape>;
    try {
      parsed = fileShape.parse(JSON.parse(text));
    } catch {
      throw new Error(t("{0} is not a file of Tandem's assistants; it is left as it is.", this.file));
    }
    const out: Assistant[] = [];
    for (const raw of parsed.assistants) {
      const row = assistantRow.safeParse(raw);
      if (row.success && row.data.id.startsWith(PERSON)) out.push({ ...row.data, source: "user" });
    }
    return out;
  }

  /** Saves `assistant` (its id made a `user:` one when it is not) for every workspace; resolves to the row kept. */
  async save(assistant: Assistant): Promise<Assistant> {
    const id = assistant.id.startsWith(PERSON) ? assistant.id : `${PERSON}${assistant.id}`;
    const row: Assistant = { ...assistant, id, source: "user" };
    const all = await this.list();
    const at = all.findIndex((a) => a.id === id);
    if (at >= 0) all[at] = row;
    else all.push(row);
    await this.write(all);
    return row;
  }

  /** Removes the assistant `id`; true when it was there. */
  async remove(id: string): Promise<boolean> {
    const all = await this.list();
    const left = all.filter((a) => a.id !== id);
    if (left.length === all.length) return false;
    await this.write(left);
    return true;
  }

  private async write(all: Assistant[]): Promise<void> {
    await mkdir(dirname(this.file), { recursive: true });
    await writeAtomic(this.file, `${JSON.stringify({ version: 1, assistants: all }, null, 2)}\n`);
  }
}

/** The person's assistant `agent` names, read through `list`, when it is one of theirs for every workspace. */
export async function personAssistant(
  agent: string,
  list?: () => Promise<Assistant[]>,
): Promise<Assistant | undefined> {
  if (!agent.startsWith(PERSON) || !list) return undefined;
  try {
    return (await list()).find((a) => a.id === agent);
  } catch {
    // An unreadable file: the conversation goes on with the workspace's first assistant.
    return undefined;
  }
}

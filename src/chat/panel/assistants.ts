/**
 * The panel's assistants: the workspace's (the store's table), the person's for every workspace
 * (global storage) and the repository's (`.tandem/assistants/*.md`), listed together; saved and
 * deleted where each is kept. A repository's assistant never takes the place of one of the
 * person's: ids differ by kind (`repo:`, `user:`), and one named like the person's is listed
 * beside it, marked, never instead of it.
 */
import { reason } from "../../protocol/reason";
import { t } from "../../protocol/l10n";
import { PERSON } from "../assistants";
import type { Assistant } from "../row-schemas";
import type { Store } from "../store";
import type { ViewHost } from "./view-host";

/** Where the person's own assistants for every workspace are kept (absent: the panel offers none). */
export interface PersonKept {
  list(): Promise<Assistant[]>;
  save(assistant: Assistant): Promise<Assistant>;
  remove(id: string): Promise<boolean>;
}

/**
 * Every assistant the panel lists: the workspace's, then the person's, then the repository's not
 * saved under their id by the person.
 */
export function listed(stored: Assistant[], person: Assistant[], repository: Assistant[]): Assistant[] {
  const own = [...stored, ...person.filter((p) => !stored.some((s) => s.id === p.id))];
  return [...own, ...repository.filter((r) => !own.some((s) => s.id === r.id))];
}

/** The person's assistants, or none (said to the host) when their file cannot be read. */
export async function personAssistants(host: ViewHost): Promise<Assistant[]> {
  if (!host.person) return [];
  try {
    return await host.person.list();
  } catch (error) {
    host.send({
      type: "notice",
      level: "warning",
      text: t("Your assistants cannot be listed: {0}", reason(error)),
    });
    return [];
  }
}

/**
 * Saves an assistant from the panel where its `source` keeps it: "user", the person's file (a
 * workspace's assistant moved there leaves the table when another remains); anything else, the
 * workspace's table (a person's one moved back leaves the file).
 */
export async function saveAssistant(store: Store, host: ViewHost, assistant: Assistant): Promise<void> {
  const { source, ...row } = assistant;
  if (source === "user" && host.person) {
    const kept = await host.person.save(row);
    host.send({ type: "rows", table: "assistants", put: [kept], delete: [] });
    if (store.get("assistants", row.id) && store.count("assistants") > 1) store.delete("assistants", row.id);
    return;
  }
  if (row.id.startsWith(PERSON) && host.person) {
    store.put("assistants", { ...row, id: row.id.slice(PERSON.length) });
    if (await host.person.remove(row.id))
      host.send({ type: "rows", table: "assistants", put: [], delete: [row.id] });
    return;
  }
  store.put("assistants", row);
}

/** Deletes the assistant `id` where it is kept (the workspace keeps at least one of its own). */
export async function deleteAssistant(store: Store, host: ViewHost, id: string): Promise<void> {
  if (id.startsWith(PERSON) && host.person) {
    if (await host.person.remove(id)) host.send({ type: "rows", table: "assistants", put: [], delete: [id] });
    return;
  }
  if (store.count("assistants") > 1) store.delete("assistants", id);
}

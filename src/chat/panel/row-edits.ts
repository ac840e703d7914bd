/**
 * The person's edits of the small tables from the panel: a conversation's title and its project
 * instructions switch, skills, plugins (a plugin's key goes to the editor's secret storage, never
 * into its row) and memories.
 */
import type { PanelMessage } from "../../protocol/messages";
import { memory } from "../make";
import type { Store } from "../store";
import type { ViewHost } from "./view-host";

/** A message of the panel that edits a row. */
export type RowEdit = Extract<
  PanelMessage,
  {
    type:
      | "rename"
      | "instructions"
      | "saveSkill"
      | "deleteSkill"
      | "savePlugin"
      | "deletePlugin"
      | "forget"
      | "remember";
  }
>;

/** Makes the edit `m` in `store` (an edit of a row that is not there does nothing). */
export async function editRow(store: Store, host: ViewHost, m: RowEdit): Promise<void> {
  switch (m.type) {
    case "rename": {
      const row = store.get("conversations", m.chat);
      if (row) store.put("conversations", { ...row, title: m.title.trim().slice(0, 200) || row.title });
      return;
    }
    case "instructions": {
      const row = store.get("conversations", m.chat);
      if (row) store.put("conversations", { ...row, instructions: m.on });
      return;
    }
    case "saveSkill":
      store.put("skills", m.skill);
      return;
    case "deleteSkill":
      store.delete("skills", m.id);
      return;
    case "savePlugin": {
      const { key, ...rest } = m.plugin;
      const before = store.get("plugins", rest.id);
      if (key !== undefined) await host.pluginKey(rest.id, key);
      const secret = key === undefined ? (before?.secret ?? false) : key !== "";
      store.put("plugins", { ...rest, secret, status: before?.status ?? "" });
      return;
    }
    case "deletePlugin":
      await host.pluginKey(m.id, "");
      store.delete("plugins", m.id);
      return;
    case "forget":
      store.delete("memories", m.id);
      return;
    case "remember": {
      const text = m.text.trim();
      if (text && store.get("assistants", m.agent))
        store.put("memories", memory(m.agent, text, { from: "person", chat: "", title: "" }));
      return;
    }
  }
}

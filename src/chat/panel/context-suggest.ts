/**
 * The entries of the `@` picker for what the person typed after `@`: the editor's current things
 * (the selection, the open editors, the problems, the terminal output), then workspace folders and
 * files, then symbols — each list capped, so a large workspace answers as fast as a small one.
 */
import type { ContextEntry } from "../../protocol/messages";
import type { EditorContext } from "./context-refs";
import { t } from "../../protocol/l10n";

/** Files asked of the editor for one query at most. */
const MAX_FILES = 40;
/** Folders offered at most. */
const MAX_FOLDERS = 10;
/** Symbols asked of the editor at most. */
const MAX_SYMBOLS = 25;

/** The picker's entries for `query` ("" when only `@` was typed). */
export async function suggest(editor: EditorContext, query: string): Promise<ContextEntry[]> {
  const q = query.trim().toLowerCase();
  const [files, symbols] = await Promise.all([
    editor.root() ? editor.files(q, MAX_FILES).catch(() => []) : Promise.resolve([]),
    q ? editor.symbols(q, MAX_SYMBOLS).catch(() => []) : Promise.resolve([]),
  ]);
  return [
    ...current(editor, q),
    ...foldersOf(files, q),
    ...files.map(fileEntry),
    ...symbols.map(symbolEntry),
  ];
}

/** The editor's current things whose name holds `q`. */
function current(editor: EditorContext, q: string): ContextEntry[] {
  const entries: ContextEntry[] = [];
  const selection = editor.selection();
  entries.push({
    ref: { kind: "selection" },
    label: t("Selection"),
    detail: selection?.text
      ? `${selection.path}:${selection.start}-${selection.end}`
      : t("Nothing is selected"),
    disabled: !selection?.text,
  });
  const open = editor.editors();
  entries.push({
    ref: { kind: "editors" },
    label: t("Open editors"),
    detail: open.length ? t("{0} open", open.length) : t("No editor is open"),
    disabled: open.length === 0,
  });
  const { count } = editor.problems();
  entries.push({
    ref: { kind: "problems" },
    label: t("Problems"),
    detail: count ? t("{0} in the workspace", count) : t("None in the workspace"),
    disabled: false,
  });
  const terminal = editor.terminal();
  entries.push({
    ref: { kind: "terminal" },
    label: t("Terminal output"),
    detail: "missing" in terminal ? terminal.missing : t("The output of {0}", terminal.command),
    disabled: "missing" in terminal,
  });
  return q ? entries.filter((e) => e.label.toLowerCase().includes(q)) : entries;
}

/** The folders holding `files` whose path holds `q`, nearest first. */
function foldersOf(files: string[], q: string): ContextEntry[] {
  const folders = new Set<string>();
  for (const file of files) {
    const parts = file.split("/").slice(0, -1);
    for (let i = parts.length; i > 0; i--) {
      const folder = parts.slice(0, i).join("/");
      if (!q || folder.toLowerCase().includes(q)) folders.add(folder);
    }
  }
  return [...folders].slice(0, MAX_FOLDERS).map((path) => ({
    ref: { kind: "folder", path },
    label: `${path.split("/").pop()}/`,
    detail: path,
    disabled: false,
  }));
}

function fileEntry(path: string): ContextEntry {
  const slash = path.lastIndexOf("/");
  return {
    ref: { kind: "file", path },
    label: path.slice(slash + 1),
    detail: slash > 0 ? path.slice(0, slash) : "",
    disabled: false,
  };
}

function symbolEntry(s: {
  name: string;
  kind: string;
  container: string;
  path: string;
  line: number;
}): ContextEntry {
  return {
    ref: { kind: "symbol", name: s.name, path: s.path, line: s.line },
    label: s.name,
    detail: `${s.kind}${s.container ? ` in ${s.container}` : ""} · ${s.path}:${s.line + 1}`,
    disabled: false,
  };
}

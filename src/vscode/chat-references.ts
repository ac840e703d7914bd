/**
 * What the person attached to a `@tandem` request with VS Code's own `#` references, as the model
 * receives it: a file as an attachment, a folder as its listing, a location (`#selection`, `#sym`,
 * a range) as its lines with path and numbers — a bare position as the lines around it — an image
 * (pasted or attached in the Chat view) as an image, checked by its bytes, and a string as it is.
 */
import vscode = require("vscode");
import type { Attachment } from "../agent/types";
import { core } from "./core";
import { reason } from "../protocol/reason";

/** Entries of a folder listed at most. */
const MAX_LISTED = 500;
/** Characters of a location's text at most. */
const MAX_CHARS = 100_000;
/** Lines shown around a bare position: before and after. */
const BEFORE = 5;
const AFTER = 40;

/** A request's references: the files to attach, the notes joined to the prompt, the files to show as used. */
export interface ChatReferences {
  files: Attachment[];
  notes: string[];
  used: vscode.Uri[];
}

/** Binary data VS Code attaches (an image pasted into the Chat view), seen without its proposed API's types. */
interface BinaryData {
  mimeType: string;
  data(): Thenable<Uint8Array>;
}

function isBinary(value: unknown): value is BinaryData {
  if (!value || typeof value !== "object") return false;
  const v = value as Partial<BinaryData>;
  return typeof v.mimeType === "string" && typeof v.data === "function";
}

/** Each reference of `request` as the model receives it; `folder` keeps attached images. */
export async function chatReferences(
  request: Pick<vscode.ChatRequest, "references">,
  folder: string,
): Promise<ChatReferences> {
  const out: ChatReferences = { files: [], notes: [], used: [] };
  for (const ref of request.references) {
    try {
      await one(ref, folder, out);
    } catch (error) {
      const why = reason(error);
      out.notes.push(`[The reference ${named(ref)} could not be read: ${why}]`);
    }
  }
  return out;
}

/** A reference as a person names it: its path (and line), else its description or id. */
function named(ref: vscode.ChatPromptReference): string {
  const value = ref.value;
  if (value instanceof vscode.Uri) return vscode.workspace.asRelativePath(value);
  if (value instanceof vscode.Location)
    return `${vscode.workspace.asRelativePath(value.uri)}:${value.range.start.line + 1}`;
  return ref.modelDescription ?? ref.id;
}

async function one(ref: vscode.ChatPromptReference, folder: string, out: ChatReferences): Promise<void> {
  const value = ref.value;
  if (value instanceof vscode.Uri) {
    const shown = vscode.workspace.asRelativePath(value);
    const { type } = await vscode.workspace.fs.stat(value);
    if (type & vscode.FileType.Directory) {
      out.notes.push(await listing(value, shown));
    } else if (type & vscode.FileType.File && value.scheme === "file") {
      out.files.push({ name: shown, type: "", path: value.fsPath });
      out.used.push(value);
    } else {
      // A named pipe or a device would block the read that attaches it.
      out.notes.push(`[${shown} was referenced but is not a regular file; it was left out.]`);
    }
  } else if (value instanceof vscode.Location) {
    out.notes.push(await lines(value));
    out.used.push(value.uri);
  } else if (isBinary(value)) {
    const data = Buffer.from(await value.data()).toString("base64");
    const { Kept } = core();
    const kept = new Kept(folder);
    const file = await kept.image(`data:${value.mimeType};base64,${data}`, ref.modelDescription ?? "Image");
    const attachment = kept.attachment(file.path, file.name);
    if (attachment) out.files.push(attachment);
  } else if (typeof value === "string") {
    out.notes.push(value);
  }
}

/** A folder's entries, one a line (folders end with "/"). */
async function listing(uri: vscode.Uri, shown: string): Promise<string> {
  const entries = (await vscode.workspace.fs.readDirectory(uri))
    .filter(([name]) => name !== ".git")
    .map(([name, type]) => (type & vscode.FileType.Directory ? `${name}/` : name))
    .sort((a, b) => a.localeCompare(b));
  const more =
    entries.length > MAX_LISTED ? `\n[${entries.length - MAX_LISTED} more entries are not listed.]` : "";
  return `The folder ${shown}/ holds ${entries.length} entries:\n${entries.slice(0, MAX_LISTED).join("\n")}${more}`;
}

/** A location's lines with its path; a bare position (a symbol's start) gives the lines around it. */
async function lines(location: vscode.Location): Promise<string> {
  const doc = await vscode.workspace.openTextDocument(location.uri);
  const shown = vscode.workspace.asRelativePath(location.uri);
  let range: vscode.Range = location.range;
  if (range.isEmpty) {
    const first = Math.max(0, range.start.line - BEFORE);
    const last = Math.min(doc.lineCount - 1, range.start.line + AFTER);
    range = new vscode.Range(first, 0, last, doc.lineAt(last).text.length);
  }
  let text = doc.getText(range);
  if (text.length > MAX_CHARS) text = `${text.slice(0, MAX_CHARS)}\n[Cut at ${MAX_CHARS} characters.]`;
  const ticks = text.includes("```") ? "````" : "```";
  const where = `${shown}:${range.start.line + 1}-${range.end.line + 1}`;
  return `Lines ${where}:\n${ticks}${doc.languageId}\n${text}\n${ticks}`;
}

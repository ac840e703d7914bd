/** Attachments: pictures go to the model as data URLs, documents join the message (a long one in part). */
import { extname } from "node:path";
import { z } from "zod";
import { pdfText } from "./pdf";
import { NotRegularError, openRegular } from "./regular";
import { tool } from "./tool";
import { READ_FILE, type Agent, type Attachment, type Tool } from "./types";
import { reason } from "../protocol/reason";

/** A document's text, kept so `read_file` can give the rest of it. */
export interface Document {
  name: string;
  text: string;
}

/** What attachments add to a user message. */
export interface Attached {
  /** Appended to the prompt: each document's text (or its first part, with a note). */
  text: string;
  /** Pictures as data URLs. */
  images: string[];
  /** Documents given only in part, for `read_file`. */
  documents: Document[];
}

/** Limits of attachments. */
export interface Budget {
  /** Characters of one document joined to the message; the rest is read with `read_file`. */
  chars: number;
  /** Largest file read, in bytes. */
  bytes: number;
}

export const BUDGET: Budget = { chars: 20_000, bytes: 25 * 1024 * 1024 };

const IMAGES: Record<string, string> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
};

/** The message parts of `files`; throws "Cannot read NAME: why" for a file that cannot be read. */
export async function attach(files: Attachment[], budget: Budget = BUDGET): Promise<Attached> {
  const out: Attached = { text: "", images: [], documents: [] };
  for (const file of files) {
    let text: string;
    try {
      const type = mediaType(file);
      const data = await readAttached(file.path, budget.bytes);
      if (type.startsWith("image/")) {
        out.images.push(`data:${type};base64,${data.toString("base64")}`);
        continue;
      }
      text = type === "application/pdf" ? await pdfText(data) : plain(data);
    } catch (error) {
      throw new Error(`Cannot read ${file.name}: ${why(error)}.`);
    }
    const shown = text.slice(0, budget.chars);
    out.text += `\n\n<file name="${file.name}">\n${shown}\n</file>`;
    if (shown.length < text.length) {
      out.documents.push({ name: file.name, text });
      out.text +=
        `\n[Only characters 0–${shown.length} of ${text.length} of ${file.name} are shown. ` +
        `Read the rest with the tool ${READ_FILE}: {"name": ${JSON.stringify(file.name)}, "offset": ${shown.length}}.]`;
    }
  }
  return out;
}

/** The bytes of the regular file `path`, refusing a pipe or device (it could block for ever) and a file over `max` bytes. */
async function readAttached(path: string, max: number): Promise<Buffer> {
  const { handle, size } = await openRegular(path);
  try {
    if (size > max) throw new Error(`it is ${sized(size)}, more than the ${sized(max)} allowed`);
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/** The media type of a file: the one given, else from its extension (unknown ones are read as text). */
export function mediaType(file: Attachment): string {
  const given = file.type.toLowerCase();
  if (given && given !== "application/octet-stream") return given;
  const ext = extname(file.name || file.path).toLowerCase();
  if (ext === ".pdf") return "application/pdf";
  return IMAGES[ext] ?? "text/plain";
}

/** A text file's text; throws when the bytes are not text. */
function plain(data: Buffer): string {
  if (data.subarray(0, 8192).includes(0)) throw new Error("it is a binary file, not text");
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(data);
  } catch {
    throw new Error("it is not UTF-8 text");
  }
}

function why(error: unknown): string {
  const code = (error as { code?: string }).code;
  if (code === "ENOENT") return "the file does not exist";
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  if (code === "EISDIR") return "it is a folder";
  if (error instanceof NotRegularError) return `it is ${error.kind}, not a regular file`;
  return reason(error);
}

function sized(bytes: number): string {
  return bytes < 1024 * 1024 ? `${Math.ceil(bytes / 1024)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

const kept = new WeakMap<Agent, Document[]>();

/** The documents given in part to the agent's runs so far (the newest last). */
export function documentsOf(a: Agent): Document[] {
  let documents = kept.get(a);
  if (!documents) kept.set(a, (documents = []));
  return documents;
}

/** The `read_file` tool over `documents`: a range of characters of one of them. */
export function reader(documents: Document[], chars = BUDGET.chars): Tool {
  return tool(
    READ_FILE,
    "Reads a part of a document the person attached that was shown only in part.",
    z.object({
      name: z.string().describe("The attached document's name."),
      offset: z.number().int().min(0).default(0).describe("The first character to read."),
      length: z.number().int().min(1).max(chars).default(chars).describe("How many characters to read."),
    }),
    ({ name, offset, length }) => {
      const document = documents.findLast((d) => d.name === name);
      if (!document) {
        throw new Error(
          `No attached document is named ${JSON.stringify(name)}; they are: ${documents.map((d) => d.name).join(", ")}.`,
        );
      }
      const end = Math.min(document.text.length, offset + length);
      const part = document.text.slice(offset, end);
      if (end >= document.text.length)
        return `${part}\n[End of ${name}: ${document.text.length} characters.]`;
      return `${part}\n[Characters ${offset}–${end} of ${document.text.length}; the rest starts at offset ${end}.]`;
    },
    { readOnly: true },
  );
}

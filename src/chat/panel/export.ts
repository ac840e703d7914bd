/** A conversation written out for the person: Markdown to read, JSON to keep or process. */
import type { Conversation, Item } from "../row-schemas";
import { isNotice } from "../../protocol/rows";

const FORMAT = 1;

/** The conversation as Markdown: the person's messages, the answers, tool calls as folded details. */
export function exportMarkdown(chat: Conversation, items: readonly Item[]): string {
  const out = [`# ${chat.title || "Conversation"}`, ""];
  for (const item of items) {
    switch (item.kind) {
      case "user": {
        const files = item.files.map((f) => f.name || f.path);
        out.push(`## You`, "", item.text, ...(files.length ? ["", `Attached: ${files.join(", ")}`] : []), "");
        break;
      }
      case "text":
        out.push(`## Tandem`, "", item.text, "");
        break;
      case "reasoning":
        out.push("<details><summary>Thinking</summary>", "", quote(item.text), "", "</details>", "");
        break;
      case "call":
        out.push(
          `<details><summary>Tool ${escaped(item.name)} — ${item.state}</summary>`,
          "",
          ...fenced(item.input, "json"),
          "",
          ...fenced(item.output || item.text),
          "",
          "</details>",
          "",
        );
        break;
      case "plan":
        out.push(`### Plan`, "", item.text, "");
        break;
      case "error":
        // A limit that ended the run, a setting it could not apply, a cut prompt: said as notes.
        out.push(`> **${isNotice(item) ? "Note" : "Error"}:** ${item.text}`, "");
        break;
      case "retry":
        out.push(`_Asked again${item.model ? ` (${item.model})` : ""}._`, "");
        break;
      case "stop":
        out.push(`_Stopped._`, "");
        break;
    }
  }
  return `${out.join("\n").trim()}\n`;
}

/** The conversation and its items as JSON, with a format number for readers. */
export function exportJson(chat: Conversation, items: readonly Item[]): string {
  return `${JSON.stringify({ format: FORMAT, conversation: chat, items }, null, 2)}\n`;
}

/**
 * `text` in a code fence longer than any run of backticks in it, so nothing in it (a model's input,
 * a tool's output) can close the fence and be read as Markdown or HTML.
 */
export function fenced(text: string, info = ""): string[] {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(Math.max(3, longest + 1));
  return [`${fence}${info}`, text, fence];
}

/** A name for the HTML of a summary line: its markup characters as entities. */
function escaped(name: string): string {
  return name.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function quote(text: string): string {
  return text
    .split("\n")
    .map((line) => `> ${line}`)
    .join("\n");
}

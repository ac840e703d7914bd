/** A conversation written out for the person: Markdown to read, JSON to keep or process. */
import type { Conversation, Item } from "./rows";

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
          `<details><summary>Tool ${item.name} — ${item.state}</summary>`,
          "",
          "```json",
          item.input,
          "```",
          "",
          "```",
          (item.output || item.text).replace(/```/g, "ʼʼʼ"),
          "```",
          "",
          "</details>",
          "",
        );
        break;
      case "plan":
        out.push(`### Plan`, "", item.text, "");
        break;
      case "error":
        out.push(`> **Error:** ${item.text}`, "");
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

function quote(text: string): string {
  return text
    .split("\n")
    .map((line) => `> ${line}`)
    .join("\n");
}

/**
 * Summaries of tool calls for the approval question: one line, never cut (the person approves all
 * of it, so all of it is shown), with hidden characters written out (see visible.ts).
 */

import { lineCount } from "./edit";
import { readArgs } from "../../protocol/args";
import { hasHidden, visible } from "./visible";
import { count } from "./counts";

/**
 * Text on one line: a line break becomes " ⏎ " (in a command it starts another command, so it
 * must show), other runs of spaces and tabs one space. Hidden characters stay (see `described`).
 */
export function oneLine(text: string): string {
  return text
    .replace(/[ \t]*(?:\r?\n[ \t]*)+/g, " ⏎ ")
    .replace(/[ \t]+/g, " ")
    .trim();
}

function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function num(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/** The summary of a call of a workspace tool, without the tool's name. */
function summary(name: string, args: Record<string, unknown>): string | undefined {
  const path = str(args.path);
  switch (name) {
    case "run_command": {
      const command = str(args.command);
      if (command === undefined) return undefined;
      const cwd = str(args.cwd)
        ?.replace(/^\.\/+/, "")
        .replace(/\/+$/, "");
      return `${oneLine(command)}${cwd && cwd !== "." ? ` (in ./${cwd})` : ""}`;
    }
    case "create_file": {
      const content = str(args.content);
      if (path === undefined || content === undefined) return undefined;
      const replaces = args.overwrite === true ? ", replacing it if it exists" : "";
      return `${path} (${count(lineCount(content), "line")}${replaces})`;
    }
    case "propose_edit": {
      if (path === undefined) return undefined;
      const content = str(args.content);
      if (content !== undefined) return `${path} (whole file, ${count(lineCount(content), "line")})`;
      const oldText = str(args.oldText);
      const newText = str(args.newText);
      if (oldText === undefined || newText === undefined) return path;
      return `${path} (${count(lineCount(oldText), "line")} → ${count(lineCount(newText), "line")})`;
    }
    case "open_file":
    case "read_file": {
      if (path === undefined) return undefined;
      const line = num(args.line);
      if (name === "open_file") return line ? `${path}:${line}` : path;
      const start = num(args.startLine);
      const end = num(args.endLine);
      if (start === undefined && end === undefined) return path;
      return `${path} (lines ${start ?? 1}–${end ?? "…"})`;
    }
    case "list_files":
      return str(args.glob) ?? "**/*";
    case "search_text": {
      const query = str(args.query);
      if (query === undefined) return undefined;
      const what = args.regex === true ? `/${query}/` : JSON.stringify(query);
      const glob = str(args.glob);
      return `${oneLine(what)}${glob && glob !== "**/*" ? ` in ${glob}` : ""}`;
    }
    case "fetch_page":
      return str(args.url);
    default:
      return undefined;
  }
}

/** The one-line summary of a call before hidden characters are written out. */
function plainSummary(name: string, argsJson: string): string {
  const read = readArgs(argsJson);
  if (!read.ok) return oneLine(`${name}: ${argsJson}`);
  const known = summary(name, read.args);
  if (known !== undefined) return oneLine(`${name}: ${known}`);
  const text = JSON.stringify(read.args);
  return oneLine(text === "{}" ? name : `${name}: ${text}`);
}

/**
 * The summary of a call as the person reads it, and whether it hid characters: only what is shown
 * counts (a file's content is not shown, so its Windows line ends flag nothing).
 */
export function described(name: string, argsJson: string): { text: string; hidden: boolean } {
  const plain = plainSummary(name, argsJson);
  return { text: visible(plain), hidden: hasHidden(plain) };
}

/** A readable one-line summary of a call, such as `run_command: npm test (in ./pkg)`, whole and with hidden characters shown. */
export function describeCall(name: string, argsJson: string): string {
  return described(name, argsJson).text;
}

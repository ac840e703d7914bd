/** What an endpoint probe found: the report's shape, its verdict, what Tandem takes from it, and its Markdown. */

import { scrub } from "./scrub";

/** One thing the probe checked: whether it holds (undefined: not known) and what a person reads about it. */
export interface Finding {
  ok: boolean | undefined;
  note: string;
}

import type { Learned, ReasoningField, TokenField } from "./facts";

export type { Learned, ReasoningField } from "./facts";

/** How the model answered a request to call a tool. */
export type ToolMode = "native" | "text" | "refused" | "ignored";

/** What the probe learned about one model of one endpoint. */
export interface Report {
  baseURL: string;
  model: string;
  /** Whether GET /models answers and lists the model; `models` are the ids it lists. */
  reachable: Finding & { models: string[] };
  /** The context window in tokens (0: not known). */
  window: Finding & { tokens: number };
  /** A short streamed answer: ms to its first chunk and to its end, and how many pieces it came in. */
  streaming: Finding & { firstMs?: number; totalMs?: number; pieces: number };
  /** Whether `stream_options.include_usage` gave a usage chunk. */
  usage: Finding;
  /** `described`: whether the model called the tool once it was described in the instructions. */
  tools: Finding & { mode?: ToolMode; described?: boolean };
  /** `opens`: an answer began inside reasoning (its template opens `<think>` in the prompt). */
  reasoning: Finding & { fields: ReasoningField[]; opens?: boolean };
  images: Finding;
  /** One line: can Tandem use this model, and how. */
  verdict: Finding;
  /** The field that caps an answer's tokens, when it is not max_tokens. */
  limit?: TokenField;
  /** How many requests the probe sent, and how long it took in ms. */
  requests: number;
  ms: number;
}

/** The reasoning field sent back, of those seen: the first of these. */
const BACK: ReasoningField[] = ["reasoning_content", "reasoning", "reasoning_details", "think"];

/** What Tandem should use for the model `report` is about. */
export function learned(report: Report): Learned {
  const out: Learned = {};
  if (report.window.tokens > 0) out.window = report.window.tokens;
  const { mode, described } = report.tools;
  if (mode === "native") out.textTools = false;
  else if (mode === "text" || mode === "refused" || (mode === "ignored" && described)) out.textTools = true;
  if (report.limit) out.limit = report.limit;
  const field = BACK.find((f) => report.reasoning.fields.includes(f));
  if (field) out.reasoning = field;
  if (report.reasoning.opens) out.opens = true;
  if (report.images.ok !== undefined) out.images = report.images.ok;
  return out;
}

/** The one line that says whether Tandem can use the model, and how; `fatal` is why the probe stopped early. */
export function verdict(report: Report, fatal: string | undefined): Finding {
  const { model, baseURL } = report;
  if (fatal) return { ok: false, note: `Tandem cannot use ${model || "a model"} at ${baseURL}: ${fatal}` };
  if (!model) {
    return {
      ok: false,
      note: `No model is set for ${baseURL}: choose one of the models it lists${some(report.reachable.models)}.`,
    };
  }
  if (!report.streaming.ok)
    return { ok: false, note: `${model} at ${baseURL} did not stream an answer: ${report.streaming.note}` };
  const { tools, reasoning, window, images } = report;
  const parts = [
    tools.mode === "native"
      ? "native tool calls"
      : tools.ok
        ? "tool calls written as text"
        : tools.ok === false
          ? "no tool calls"
          : "tool calls not known",
    reasoning.fields.length ? `reasoning in ${joined(reasoning.fields.map(where))}` : "no reasoning seen",
    window.tokens ? `a ${thousands(window.tokens)}-token window` : "an unknown window",
    images.ok ? "image input" : images.ok === false ? "no image input" : "image input not known",
  ];
  return { ok: true, note: `Tandem can use ${model}: it streams, with ${joined(parts)}.` };
}

/** The report as Markdown a person reads in a preview: the verdict, a table of checks, and what Tandem will use. */
export function markdown(report: Report): string {
  const mark = (ok: boolean | undefined): string => (ok ? "✅" : ok === false ? "❌" : "➖");
  const rows: [check: string, finding: Finding, result: string][] = [
    ["Reachable", report.reachable, yes(report.reachable.ok)],
    [
      "Context window",
      report.window,
      report.window.tokens ? `${thousands(report.window.tokens)} tokens` : yes(report.window.ok),
    ],
    ["Streaming", report.streaming, yes(report.streaming.ok)],
    ["Usage in the stream", report.usage, yes(report.usage.ok)],
    ["Tool calls", report.tools, tooling(report.tools)],
    [
      "Reasoning",
      report.reasoning,
      report.reasoning.fields.length
        ? report.reasoning.fields.map(where).join(", ")
        : yes(report.reasoning.ok),
    ],
    ["Image input", report.images, report.images.ok === false ? "refused" : yes(report.images.ok)],
  ];
  const lines = [
    `# Endpoint check: ${plain(report.model || "no model")}`,
    "",
    `${code(report.baseURL)} · ${report.requests} request${report.requests === 1 ? "" : "s"} in ${seconds(report.ms)}`,
    "",
    `**${mark(report.verdict.ok)} ${plain(report.verdict.note)}**`,
    "",
    "| Check | Result | What the endpoint did |",
    "| --- | --- | --- |",
    ...rows.map(
      ([check, finding, result]) =>
        `| ${check} | ${mark(finding.ok)} ${plain(result)} | ${plain(finding.note)} |`,
    ),
    "",
    `## What Tandem will use for ${plain(report.model || "this model")}`,
    "",
  ];
  const use = learned(report);
  if (use.window) lines.push(`- Context window: ${thousands(use.window)} tokens.`);
  if (use.textTools === true)
    lines.push("- Tool calls: described in the instructions, and read from what the model writes.");
  if (use.textTools === false) lines.push("- Tool calls: native (the `tools` field).");
  if (use.reasoning === "reasoning_content" || use.reasoning === "reasoning")
    lines.push(
      `- Reasoning: sent back in \`${use.reasoning}\` on tool-call turns, so the model continues it.`,
    );
  if (use.opens)
    lines.push("- Answers start inside reasoning (the template opens a think tag): read as reasoning.");
  if (use.limit) lines.push(`- Token cap: sent as \`${use.limit}\`.`);
  if (Object.keys(use).length === 0) lines.push("Nothing learned: Tandem keeps its defaults for this model.");
  return `${lines.join("\n")}\n`;
}

/** The report with the API key cut out of every note (a server may echo it in an error). */
export function scrubbed(report: Report, key: string): Report {
  const { reachable, window, streaming, usage, tools, reasoning, images, verdict } = report;
  for (const finding of [reachable, window, streaming, usage, tools, reasoning, images, verdict])
    finding.note = scrub(finding.note, key, "…");
  return report;
}

/** Up to five of `ids` after a colon, for a sentence. */
export function some(ids: string[]): string {
  if (!ids.length) return "";
  return `: ${ids.slice(0, 5).join(", ")}${ids.length > 5 ? ", …" : ""}`;
}

/** "a, b and c". */
export function joined(parts: string[]): string {
  return parts.length < 2 ? parts.join("") : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
}

/** A count of tokens as a person reads it: 131,072. */
export function thousands(value: number): string {
  return value.toLocaleString("en-US");
}

/** Where a reasoning field is, in words. */
export function where(field: ReasoningField): string {
  return field === "think" ? "<think> tags" : field;
}

function yes(ok: boolean | undefined): string {
  return ok ? "yes" : ok === false ? "no" : "not known";
}

function tooling(tools: Report["tools"]): string {
  if (tools.mode === "native") return "native";
  if (tools.mode === "text") return "written as text";
  if (tools.mode === "refused") return tools.described ? "refused; as text" : "refused";
  if (tools.mode === "ignored") return tools.described ? "as text" : "ignored";
  return "not known";
}

function seconds(value: number): string {
  return value < 1000 ? `${value} ms` : `${(value / 1000).toFixed(1)} s`;
}

/** Text from outside (server messages, model names) as literal Markdown: no markup, no HTML, one line. */
function plain(text: string): string {
  return text.replace(/\s+/g, " ").replace(/[\\`*_[\]<>|&~#!]/g, (c) => `\\${c}`);
}

/** `text` as a code span, whatever backticks it holds. */
function code(text: string): string {
  const line = text.replace(/\s+/g, " ");
  const longest = Math.max(0, ...(line.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  return longest ? `${fence} ${line} ${fence}` : `${fence}${line}${fence}`;
}

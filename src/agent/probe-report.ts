/** What an endpoint probe found: the report's shape, its verdict, what Tandem takes from it, and its Markdown. */

import { scrub } from "./scrub";

/** One thing the probe checked: whether it holds (undefined: not known) and what a person reads about it. */
export interface Finding {
  ok: boolean | undefined;
  note: string;
}

import type { Learned, ReasoningField, TokenField } from "./facts";
import type { WindowFinding } from "./probe-window";
import { t } from "../protocol/l10n";

export type { Learned, ReasoningField } from "./facts";

/** How the model answered a request to call a tool. */
export type ToolMode = "native" | "text" | "refused" | "ignored";

/** What the probe learned about one model of one endpoint. */
export interface Report {
  baseURL: string;
  model: string;
  /** Whether GET /models answers and lists the model; `models` are the ids it lists. */
  reachable: Finding & { models: string[] };
  /** The context window in tokens (0: not known): the one served when the server says it, else the listed one. */
  window: WindowFinding;
  /** A prompt the server cut without a word in an earlier run (absent: none seen). */
  cut?: Finding & { held: number };
  /** A short streamed answer: ms to its first chunk and to its end, and how many pieces it came in. */
  streaming: Finding & { firstMs?: number; totalMs?: number; pieces: number };
  /** Whether `stream_options.include_usage` gave a usage chunk. */
  usage: Finding;
  /** `described`: whether the model called the tool once it was described in the instructions. */
  tools: Finding & { mode?: ToolMode; described?: boolean };
  /** `opens`: an answer began inside reasoning (its template opens `<think>` in the prompt). */
  reasoning: Finding & { fields: ReasoningField[]; opens?: boolean };
  images: Finding;
  /** Whether an answer is held to a JSON Schema given in `response_format` (checked when tools are not native). */
  format?: Finding;
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
  if (report.format?.ok !== undefined) out.jsonSchema = report.format.ok;
  // Held to the tools' schemas, a model that calls no tool by itself calls them by construction.
  if (report.format?.ok && mode !== "native") out.textTools = true;
  return out;
}

/** The one line that says whether Tandem can use the model, and how; `fatal` is why the probe stopped early. */
export function verdict(report: Report, fatal: string | undefined): Finding {
  const { model, baseURL } = report;
  if (fatal)
    return { ok: false, note: t("Tandem cannot use {0} at {1}: {2}", model || t("a model"), baseURL, fatal) };
  if (!model) {
    return {
      ok: false,
      note: t(
        "No model is set for {0}: choose one of the models it lists{1}.",
        baseURL,
        some(report.reachable.models),
      ),
    };
  }
  if (!report.streaming.ok)
    return {
      ok: false,
      note: t("{0} at {1} did not stream an answer: {2}", model, baseURL, report.streaming.note),
    };
  const { tools, reasoning, window, images } = report;
  const parts = [
    tools.mode === "native"
      ? t("native tool calls")
      : tools.ok
        ? t("tool calls written as text")
        : tools.ok === false
          ? t("no tool calls")
          : t("tool calls not known"),
    reasoning.fields.length
      ? t("reasoning in {0}", joined(reasoning.fields.map(where)))
      : t("no reasoning seen"),
    window.tokens ? t("a {0}-token window", thousands(window.tokens)) : t("an unknown window"),
    images.ok ? t("image input") : images.ok === false ? t("no image input") : t("image input not known"),
  ];
  return { ok: true, note: t("Tandem can use {0}: it streams, with {1}.", model, joined(parts)) };
}

/** The report as Markdown a person reads in a preview: the verdict, a table of checks, and what Tandem will use. */
export function markdown(report: Report): string {
  const mark = (ok: boolean | undefined): string => (ok ? "✅" : ok === false ? "❌" : "➖");
  const rows: [check: string, finding: Finding, result: string][] = [
    [t("Reachable"), report.reachable, yes(report.reachable.ok)],
    [
      t("Context window"),
      report.window,
      report.window.tokens ? t("{0} tokens", thousands(report.window.tokens)) : yes(report.window.ok),
    ],
    ...(report.cut
      ? [
          [t("Prompts cut"), report.cut, t("to {0} tokens", thousands(report.cut.held))] as [
            string,
            Finding,
            string,
          ],
        ]
      : []),
    [t("Streaming"), report.streaming, yes(report.streaming.ok)],
    [t("Usage in the stream"), report.usage, yes(report.usage.ok)],
    [t("Tool calls"), report.tools, tooling(report.tools)],
    [
      t("Reasoning"),
      report.reasoning,
      report.reasoning.fields.length
        ? report.reasoning.fields.map(where).join(", ")
        : yes(report.reasoning.ok),
    ],
    [t("Image input"), report.images, report.images.ok === false ? t("refused") : yes(report.images.ok)],
    ...(report.format
      ? [[t("JSON Schema output"), report.format, yes(report.format.ok)] as [string, Finding, string]]
      : []),
  ];
  const lines = [
    t("# Endpoint check: {0}", plain(report.model || t("no model"))),
    "",
    report.requests === 1
      ? t("{0} · 1 request in {1}", code(report.baseURL), seconds(report.ms))
      : t("{0} · {1} requests in {2}", code(report.baseURL), report.requests, seconds(report.ms)),
    "",
    `**${mark(report.verdict.ok)} ${plain(report.verdict.note)}**`,
    "",
    t("| Check | Result | What the endpoint did |"),
    "| --- | --- | --- |",
    ...rows.map(
      ([check, finding, result]) =>
        `| ${check} | ${mark(finding.ok)} ${plain(result)} | ${plain(finding.note)} |`,
    ),
    "",
    t("## What Tandem will use for {0}", plain(report.model || t("this model"))),
    "",
  ];
  const use = learned(report);
  if (use.window) lines.push(t("- Context window: {0} tokens.", thousands(use.window)));
  if (use.textTools === true && use.jsonSchema)
    lines.push(
      t(
        "- Tool calls: described in the instructions, the answer held to the tools' schemas (`response_format`).",
      ),
    );
  else if (use.textTools === true)
    lines.push(t("- Tool calls: described in the instructions, and read from what the model writes."));
  if (use.textTools === false) lines.push(t("- Tool calls: native (the `tools` field)."));
  if (use.reasoning === "reasoning_content" || use.reasoning === "reasoning")
    lines.push(
      t("- Reasoning: sent back in `{0}` on tool-call turns, so the model continues it.", use.reasoning),
    );
  if (use.opens)
    lines.push(t("- Answers start inside reasoning (the template opens a think tag): read as reasoning."));
  if (use.limit) lines.push(t("- Token cap: sent as `{0}`.", use.limit));
  if (Object.keys(use).length === 0)
    lines.push(t("Nothing learned: Tandem keeps its defaults for this model."));
  return `${lines.join("\n")}\n`;
}

/** The report with the API key cut out of every note (a server may echo it in an error). */
export function scrubbed(report: Report, key: string): Report {
  const { reachable, window, streaming, usage, tools, reasoning, images, verdict, format, cut } = report;
  for (const finding of [reachable, window, streaming, usage, tools, reasoning, images, verdict, format, cut])
    if (finding) finding.note = scrub(finding.note, key, "…");
  return report;
}

/** TEXT on one line, cut to MAX characters. */
export function clip(text: string, max = 60): string {
  const line = text.replace(/\s+/g, " ");
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** Up to five of `ids` after a colon, for a sentence. */
export function some(ids: string[]): string {
  if (!ids.length) return "";
  return `: ${ids.slice(0, 5).join(", ")}${ids.length > 5 ? ", …" : ""}`;
}

/** "a, b and c". */
export function joined(parts: string[]): string {
  return parts.length < 2
    ? parts.join("")
    : t("{0} and {1}", parts.slice(0, -1).join(", "), parts.at(-1) ?? "");
}

/** A count of tokens as a person reads it: 131,072. */
export function thousands(value: number): string {
  return value.toLocaleString("en-US");
}

/** Where a reasoning field is, in words. */
export function where(field: ReasoningField): string {
  return field === "think" ? t("<think> tags") : field;
}

function yes(ok: boolean | undefined): string {
  return ok ? t("yes") : ok === false ? t("no") : t("not known");
}

function tooling(tools: Report["tools"]): string {
  if (tools.mode === "native") return t("native");
  if (tools.mode === "text") return t("written as text");
  if (tools.mode === "refused") return tools.described ? t("refused; as text") : t("refused");
  if (tools.mode === "ignored") return tools.described ? t("as text") : t("ignored");
  return t("not known");
}

function seconds(value: number): string {
  return value < 1000 ? t("{0} ms", value) : t("{0} s", (value / 1000).toFixed(1));
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

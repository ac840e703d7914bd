/**
 * Reads a request body as FastAPI does: JSON when the content type is JSON or absent, the raw text
 * otherwise; a body that is not JSON is reported with the position and the reason Python's `json`
 * module gives, so the 422 matches the reference server's.
 */
import type { Problem } from "./validation";

/** The body's value (undefined: no body), or the problem that stops it being read. */
export type Body = { ok: true; value: unknown } | { ok: false; status: 400 | 422; problem: Problem | string };

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Reads `bytes` sent with the Content-Type `type`. */
export function readBody(bytes: Buffer, type: string | undefined): Body {
  if (bytes.length === 0) return { ok: true, value: undefined };
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { ok: false, status: 400, problem: "There was an error parsing the body" };
  }
  if (type !== undefined && !isJson(type)) return { ok: true, value: text };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    const { reason, at } = jsonError(text);
    return {
      ok: false,
      status: 422,
      problem: {
        type: "json_invalid",
        loc: ["body", at],
        msg: "JSON decode error",
        input: {},
        ctx: { error: reason },
      },
    };
  }
}

function isJson(type: string): boolean {
  const media = type.split(";")[0].trim().toLowerCase();
  const [main, sub = ""] = media.split("/");
  return main === "application" && (sub === "json" || sub.endsWith("+json"));
}

/**
 * Where and why Python's json.loads rejects `text`: a small scanner that follows its grammar and
 * messages. The position counts characters (code points), as Python's does.
 */
export function jsonError(text: string): { reason: string; at: number } {
  let i = 0;
  const chars = (end: number) => Array.from(text.slice(0, end)).length;
  class Stop {
    constructor(
      readonly reason: string,
      readonly at: number,
    ) {}
  }
  const space = () => {
    while (i < text.length && " \t\n\r".includes(text[i])) i++;
  };
  const string = () => {
    const start = i++;
    for (;;) {
      if (i >= text.length) throw new Stop("Unterminated string starting at", start);
      const c = text[i];
      if (c === '"') return void i++;
      if (c === "\\") {
        const e = text[i + 1];
        if (e === undefined) throw new Stop("Unterminated string starting at", start);
        if (e === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6)))
            throw new Stop("Invalid \\uXXXX escape", i + 1);
          i += 6;
        } else if ('"\\/bfnrt'.includes(e)) i += 2;
        else throw new Stop("Invalid \\escape", i);
      } else if (c.charCodeAt(0) < 0x20) throw new Stop("Invalid control character at", i);
      else i++;
    }
  };
  const value = (): void => {
    const c = text[i];
    if (c === '"') return string();
    if (c === "{") {
      i++;
      space();
      if (text[i] === "}") return void i++;
      for (;;) {
        if (text[i] !== '"') throw new Stop("Expecting property name enclosed in double quotes", i);
        string();
        space();
        if (text[i] !== ":") throw new Stop("Expecting ':' delimiter", i);
        i++;
        space();
        value();
        space();
        if (text[i] === "}") return void i++;
        if (text[i] !== ",") throw new Stop("Expecting ',' delimiter", i);
        i++;
        space();
      }
    }
    if (c === "[") {
      i++;
      space();
      if (text[i] === "]") return void i++;
      for (;;) {
        value();
        space();
        if (text[i] === "]") return void i++;
        if (text[i] !== ",") throw new Stop("Expecting ',' delimiter", i);
        i++;
        space();
      }
    }
    const rest = text.slice(i);
    const word = /^(null|true|false|NaN|Infinity|-Infinity)/.exec(rest);
    if (word) return void (i += word[0].length);
    const num = /^-?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/.exec(rest);
    if (num) return void (i += num[0].length);
    throw new Stop("Expecting value", i);
  };
  try {
    space();
    value();
    space();
    if (i < text.length) throw new Stop("Extra data", i);
  } catch (stop) {
    if (stop instanceof Stop) return { reason: stop.reason, at: chars(stop.at) };
    // Nesting too deep for the scanner: say where it was.
    return { reason: "Expecting value", at: chars(i) };
  }
  // Python accepts what JSON.parse refused (NaN, Infinity): report it where it starts.
  const odd = text.search(/NaN|Infinity/);
  return { reason: "Expecting value", at: chars(Math.max(odd, 0)) };
}

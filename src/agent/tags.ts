/**
 * Splits a streamed answer at tags a model writes in its text: `<think>…</think>` is reasoning and
 * `<tool_call>…</tool_call>` is a call written as text. A tag may be split across chunks anywhere.
 *
 * A server whose template opens `<think>` in the prompt streams an answer that starts inside the
 * reasoning: its first tag is a lone `</think>`. What came before it was reasoning; an "opened"
 * segment says so (the text already given is reasoning), and the tag itself is never given.
 */

/** A run of streamed text of one kind; "opened": all text given before was reasoning. */
export interface Segment {
  kind: "text" | "reasoning" | "call" | "opened";
  text: string;
}

const CLOSERS = ["</think>", "</thinking>"];

const OPENERS: [open: string, close: string, kind: Segment["kind"]][] = [
  ["<think>", "</think>", "reasoning"],
  ["<thinking>", "</thinking>", "reasoning"],
  ["<tool_call>", "</tool_call>", "call"],
];

/** A streaming splitter: `feed` each chunk, then `flush` at the end of the turn. */
export class Tags {
  private kind: Segment["kind"] = "text";
  private close = "";
  private held = "";
  private trim = false;
  /** Whether a tag was seen this turn: a closing tag is lone only before any. */
  private tagged = false;

  /** Whether a closing tag ended a reasoning block. */
  private left = false;

  /** `inside`: the answer starts inside reasoning (the template opened `<think>`). */
  constructor(private readonly inside = false) {
    if (inside) [this.kind, this.close, this.tagged] = ["reasoning", "</think>", true];
  }

  /** Whether the turn started inside reasoning and never left it (the model did not think this time). */
  get unclosed(): boolean {
    return this.inside && !this.left;
  }

  /** The segments of `chunk` that are complete, holding back what may be the start of a tag. */
  feed(chunk: string): Segment[] {
    const out: Segment[] = [];
    let rest = this.held + chunk;
    this.held = "";
    while (rest) {
      if (this.kind === "text") {
        let at = -1;
        let found: (typeof OPENERS)[number] | undefined;
        for (const opener of OPENERS) {
          const i = rest.indexOf(opener[0]);
          if (i >= 0 && (at < 0 || i < at)) [at, found] = [i, opener];
        }
        const lone = this.tagged ? -1 : firstOf(rest, CLOSERS);
        if (lone >= 0 && (at < 0 || lone < at)) {
          const closer = CLOSERS.find((c) => rest.startsWith(c, lone)) ?? CLOSERS[0];
          out.push({ kind: "opened", text: "" });
          this.push(out, "reasoning", rest.slice(0, lone));
          rest = rest.slice(lone + closer.length);
          [this.tagged, this.trim, this.left] = [true, true, true];
          continue;
        }
        if (found) {
          this.push(out, "text", rest.slice(0, at));
          rest = rest.slice(at + found[0].length);
          [this.close, this.kind, this.tagged] = [found[1], found[2], true];
          continue;
        }
        const keep = partial(rest, [...OPENERS.map((o) => o[0]), ...(this.tagged ? [] : CLOSERS)]);
        this.push(out, "text", rest.slice(0, rest.length - keep));
        this.held = rest.slice(rest.length - keep);
        return out;
      }
      const i = rest.indexOf(this.close);
      if (i >= 0) {
        this.push(out, this.kind, rest.slice(0, i));
        if (this.kind === "call") out.push({ kind: "call", text: "" });
        rest = rest.slice(i + this.close.length);
        this.trim = this.kind === "reasoning";
        this.left = true;
        this.kind = "text";
        continue;
      }
      const keep = partial(rest, [this.close]);
      this.push(out, this.kind, rest.slice(0, rest.length - keep));
      this.held = rest.slice(rest.length - keep);
      return out;
    }
    return out;
  }

  /** What was held back, at the end of the turn. */
  flush(): Segment[] {
    const out: Segment[] = [];
    this.push(out, this.kind, this.held);
    if (this.kind === "call") out.push({ kind: "call", text: "" });
    this.held = "";
    return out;
  }

  private push(out: Segment[], kind: Segment["kind"], text: string): void {
    // The blank lines a model writes after its reasoning are not part of the answer.
    if (kind === "text" && this.trim) {
      text = text.replace(/^\s+/, "");
      if (text) this.trim = false;
    }
    if (text) out.push({ kind, text });
  }
}

/** Where the first of `tags` begins in `text` (-1: none). */
function firstOf(text: string, tags: string[]): number {
  const found = tags.map((t) => text.indexOf(t)).filter((i) => i >= 0);
  return found.length ? Math.min(...found) : -1;
}

/** How many characters at the end of `text` could begin one of `tags`. */
function partial(text: string, tags: string[]): number {
  const from = text.lastIndexOf("<");
  if (from < 0) return 0;
  const tail = text.slice(from);
  return tags.some((tag) => tag.startsWith(tail) && tag !== tail) ? tail.length : 0;
}

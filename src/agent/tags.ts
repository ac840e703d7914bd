/**
 * Splits a streamed answer at tags a model writes in its text: `<think>…</think>` is reasoning and
 * `<tool_call>…</tool_call>` is a call written as text. A tag may be split across chunks anywhere.
 */

/** A run of streamed text of one kind. */
export interface Segment {
  kind: "text" | "reasoning" | "call";
  text: string;
}

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
        if (found) {
          this.push(out, "text", rest.slice(0, at));
          rest = rest.slice(at + found[0].length);
          [this.close, this.kind] = [found[1], found[2]];
          continue;
        }
        const keep = partial(
          rest,
          OPENERS.map((o) => o[0]),
        );
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

/** How many characters at the end of `text` could begin one of `tags`. */
function partial(text: string, tags: string[]): number {
  const from = text.lastIndexOf("<");
  if (from < 0) return 0;
  const tail = text.slice(from);
  return tags.some((tag) => tag.startsWith(tail) && tag !== tail) ? tail.length : 0;
}

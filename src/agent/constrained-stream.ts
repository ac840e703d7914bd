/**
 * The answer of a constrained output as it streams: once the output reads `{"answer": "`, the
 * string's characters are decoded as they come, so the person sees the answer grow as with any
 * model; an output that turns out to be a call (or not JSON) shows nothing while it streams.
 */

/** How the start of a constrained answer reads; anything else is a call or not JSON. */
const OPENING = /^\s*\{\s*"answer"\s*:\s*"/;
/** A prefix that may still become the opening when more comes. */
const PARTIAL = /^\s*(\{\s*("(a(n(s(w(er?)?)?)?)?)?("\s*(:\s*)?)?)?)?$/;

const ESCAPES: Record<string, string> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};

/** Decodes the answer string of one constrained output, piece by piece. */
export class AnswerStream {
  /** What came of the output, whole. */
  raw = "";
  /** The answer decoded so far. */
  text = "";
  /** "waiting": not yet known; "answer": inside the answer string; "ended": its closing quote came; "other": a call or not JSON. */
  state: "waiting" | "answer" | "ended" | "other" = "waiting";
  /** Where in `raw` decoding goes on. */
  private at = 0;
  /** A high surrogate waiting for its pair. */
  private high = "";

  /** Takes the next piece of the output; returns the answer text it adds (often ""). */
  feed(piece: string): string {
    this.raw += piece;
    if (this.state === "waiting") {
      const opened = OPENING.exec(this.raw);
      if (opened) {
        this.state = "answer";
        this.at = opened[0].length;
      } else if (!PARTIAL.test(this.raw)) this.state = "other";
    }
    if (this.state !== "answer") return "";
    let out = "";
    while (this.at < this.raw.length) {
      const c = this.raw[this.at];
      if (c === '"') {
        this.state = "ended";
        break;
      }
      if (c !== "\\") {
        out += this.high + c;
        this.high = "";
        this.at++;
        continue;
      }
      // An escape decodes once it is whole; part of one waits for the next piece.
      const next = this.raw[this.at + 1];
      if (next === undefined) break;
      if (next === "u") {
        const hex = this.raw.slice(this.at + 2, this.at + 6);
        if (hex.length < 4) break;
        const code = Number.parseInt(hex, 16);
        this.at += 6;
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) continue;
        const char = String.fromCharCode(code);
        if (code >= 0xd800 && code < 0xdc00) this.high = char;
        else {
          out += this.high + char;
          this.high = "";
        }
        continue;
      }
      out += this.high + (ESCAPES[next] ?? next);
      this.high = "";
      this.at += 2;
    }
    this.text += out;
    return out;
  }
}

/**
 * A line diff of two texts (Myers' O(ND) algorithm) and the hunks it makes. Lines keep their
 * endings ("\n", "\r\n", or none on a last line), so joining lines gives the text back byte for
 * byte, and keeping or undoing one hunk changes nothing else.
 */
import { t } from "../../protocol/l10n";

/** One changed region: `before` lines starting at `beforeStart` became `after` lines at `afterStart` (0-based). */
export interface Hunk {
  beforeStart: number;
  beforeCount: number;
  afterStart: number;
  afterCount: number;
}

/** Above this much work (lines × differences) the middle is taken as one changed region. */
const WORK_LIMIT = 40_000_000;

/** The lines of `text`, each with its ending; "" has none. */
export function linesOf(text: string): string[] {
  const out: string[] = [];
  let from = 0;
  for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", from)) {
    out.push(text.slice(from, at + 1));
    from = at + 1;
  }
  if (from < text.length) out.push(text.slice(from));
  return out;
}

/** Which lines stay ("="), go ("-") or come ("+"), in order, turning `a` into `b`. */
function script(a: readonly string[], b: readonly string[]): string[] {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const offset = max + 1;
  let v: Int32Array = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = -1;
  for (let d = 0; d <= max && found < 0; d++) {
    if ((d + 1) * (n + m) > WORK_LIMIT && d > 0) break;
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1])
          ? v[offset + k + 1]
          : v[offset + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
  }
  if (found < 0) return [...a.map(() => "-"), ...b.map(() => "+")];
  const ops: string[] = [];
  let x = n;
  let y = m;
  for (let d = found; d > 0; d--) {
    v = trace[d];
    const k = x - y;
    const prevK = k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]) ? k + 1 : k - 1;
    const prevX = v[offset + prevK];
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      ops.push("=");
      x--;
      y--;
    }
    if (x === prevX) {
      ops.push("+");
      y--;
    } else {
      ops.push("-");
      x--;
    }
  }
  while (x > 0 && y > 0) {
    ops.push("=");
    x--;
    y--;
  }
  return ops.reverse();
}

/** The hunks that turn the lines `a` into the lines `b`; changes with an unchanged line between them are separate hunks. */
export function hunksOfLines(a: readonly string[], b: readonly string[]): Hunk[] {
  // A common head and tail cost nothing to find and shrink the diff's work.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  )
    tail++;
  const ops = script(a.slice(head, a.length - tail), b.slice(head, b.length - tail));
  const hunks: Hunk[] = [];
  let x = head;
  let y = head;
  let open: Hunk | undefined;
  for (const op of ops) {
    if (op === "=") {
      open = undefined;
      x++;
      y++;
      continue;
    }
    if (!open) {
      open = { beforeStart: x, beforeCount: 0, afterStart: y, afterCount: 0 };
      hunks.push(open);
    }
    if (op === "-") {
      open.beforeCount++;
      x++;
    } else {
      open.afterCount++;
      y++;
    }
  }
  return hunks;
}

/** The hunks that turn `before` into `after`. */
export function hunksOf(before: string, after: string): Hunk[] {
  return hunksOfLines(linesOf(before), linesOf(after));
}

/** `before` with hunk `index` of (before → after) taken in: what "keep this hunk" makes the reference. */
export function keepHunk(before: string, after: string, index: number): string {
  const a = linesOf(before);
  const b = linesOf(after);
  const h = hunkAt(hunksOfLines(a, b), index);
  return [
    ...a.slice(0, h.beforeStart),
    ...b.slice(h.afterStart, h.afterStart + h.afterCount),
    ...a.slice(h.beforeStart + h.beforeCount),
  ].join("");
}

/** `after` with hunk `index` of (before → after) put back as it was: what "undo this hunk" writes. */
export function undoHunk(before: string, after: string, index: number): string {
  const a = linesOf(before);
  const b = linesOf(after);
  const h = hunkAt(hunksOfLines(a, b), index);
  return [
    ...b.slice(0, h.afterStart),
    ...a.slice(h.beforeStart, h.beforeStart + h.beforeCount),
    ...b.slice(h.afterStart + h.afterCount),
  ].join("");
}

function hunkAt(hunks: Hunk[], index: number): Hunk {
  const h = hunks[index];
  if (!h)
    throw new Error(
      t("There is no change {0} here ({1} left); the file changed meanwhile.", index + 1, hunks.length),
    );
  return h;
}

/** A short unified-style listing of what changed from `a` to `b`, at most `limit` lines. */
export function listing(a: string, b: string, limit = 40): string {
  const la = linesOf(a);
  const lb = linesOf(b);
  const out: string[] = [];
  const bare = (line: string) => line.replace(/\r?\n$/, "");
  for (const h of hunksOfLines(la, lb)) {
    out.push(`@@ lines ${h.afterStart + 1}${h.afterCount > 1 ? `-${h.afterStart + h.afterCount}` : ""} @@`);
    for (const line of la.slice(h.beforeStart, h.beforeStart + h.beforeCount)) out.push(`-${bare(line)}`);
    for (const line of lb.slice(h.afterStart, h.afterStart + h.afterCount)) out.push(`+${bare(line)}`);
  }
  if (out.length <= limit) return out.join("\n");
  return [...out.slice(0, limit), `… ${out.length - limit} more lines`].join("\n");
}

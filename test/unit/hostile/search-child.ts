/**
 * Run as its own process by attacks-host.ts: search_text, through the real workspace tools, for a
 * catastrophic pattern on a repository file, while a timer prints "tick" every 50 ms. A host
 * thread held by the pattern stops the ticks; the parent measures the silence (and can end this
 * process, which a pattern on the parent's own thread would not allow). Stops the search after 1.5 s.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { workspaceTools } from "../../../src/chat/workspace/tools";

const root = mkdtempSync(join(tmpdir(), "tandem-redos-"));
// 2^31 ways to fail on this 32-character line: minutes on one thread.
writeFileSync(join(root, "data.txt"), "a".repeat(31) + "!\n");
const search = workspaceTools({ root, trusted: true }).find((t) => t.name === "search_text");
if (!search) throw new Error("no search_text tool");
const stop = new AbortController();
// A first tick before the search starts: a thread held from its first file on is silent from here.
process.stdout.write("tick\n");
const tick = setInterval(() => process.stdout.write("tick\n"), 50);
setTimeout(() => stop.abort(), 1500);
search
  .run(JSON.stringify({ query: "^(a|a)*$", regex: true }), stop.signal)
  .catch((error: Error) => error.message)
  .then(() => {
    clearInterval(tick);
    rmSync(root, { recursive: true, force: true });
    process.stdout.write("end\n");
  });

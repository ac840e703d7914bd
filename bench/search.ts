// search_text on a generated tree of 25,000+ files, three ways in the same run: Tandem through
// VS Code's ripgrep (what VS Code users get), ripgrep run directly on the same query, and Tandem's
// plain-Node fallback; median of rounds, literal and regex queries:
//   BENCH search query=… files=… tandem_ms=… rg_ms=… ratio=… node_ms=… same=1
// `same=1` says Tandem's answer through ripgrep equals its Node fallback's (same files, lines,
// order, cap and notes); `in_rg=1` that every line it answers is one ripgrep finds on its own.
// Goal: ratio <= 1.5.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { ripgrepUnder } from "../src/chat/workspace/ripgrep";
import { findMatches, type SearchQuery } from "../src/chat/workspace/search";
import { folder } from "../test/unit/workspace/fixtures";
import { TREE_EXCLUDE, makeTree } from "../test/unit/workspace/tree";

const FILES = 25_000;
const ROUNDS = 5;
const SEED = 2026;
const app = join(__dirname, "../.vscode-test/server/node_modules/code-server/lib/vscode");

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

/** ripgrep as a person would run it on the same query: its own rules, its own threads; `path:line` of each match. */
function rgDirect(rg: string, root: string, query: SearchQuery): Promise<string[]> {
  const args = [
    "--no-config",
    "--hidden",
    "--no-require-git",
    "--max-filesize=1M",
    "--glob=!.git/",
    "--glob=!node_modules/",
    ...Object.entries(TREE_EXCLUDE)
      .filter(([glob, v]) => v === true && glob.startsWith("**/"))
      .map(([glob]) => `--glob=!${glob.slice(3)}`),
    "--glob=!dist/",
    "--line-number",
    "--no-heading",
    "--with-filename",
    "--null",
    query.caseSensitive ? "--case-sensitive" : "--ignore-case",
    ...(query.regex ? [] : ["--fixed-strings"]),
    `--regexp=${query.query}`,
    "--",
    "./",
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(rg, args, { cwd: root, stdio: ["ignore", "pipe", "ignore"] });
    const chunks: Buffer[] = [];
    child.stdout.on("data", (c: Buffer) => chunks.push(c));
    child.on("error", reject);
    child.on("close", () => {
      const out = Buffer.concat(chunks).toString("utf8").split("\n").filter(Boolean);
      resolve(out.map((l) => l.replace(/^\.\//, "").replace(/\0(\d+):[^]*$/, ":$1")));
    });
  });
}

async function main(): Promise<void> {
  const rg = ripgrepUnder(app);
  if (!rg)
    throw new Error(`No ripgrep under ${app}: run \`npm test -- vscode\` once to install code-server.`);
  const { path: root, remove } = folder("tandem-bench-search-");
  try {
    const { files } = makeTree(root, FILES, SEED);
    const queries: SearchQuery[] = [
      { query: "fetchUser", regex: false, caseSensitive: false, glob: "**/*", maxResults: 100 },
      { query: "naïve café", regex: false, caseSensitive: true, glob: "**/*", maxResults: 100 },
      { query: "await fetch\\w+\\(x1\\)", regex: true, caseSensitive: false, glob: "**/*", maxResults: 100 },
      { query: "zebra\\d+", regex: true, caseSensitive: false, glob: "**/*", maxResults: 100 },
      { query: "no such text", regex: false, caseSensitive: false, glob: "**/*", maxResults: 100 },
    ];
    const workspace = { root };
    const exclude = { ...TREE_EXCLUDE };
    for (const query of queries) {
      const tandem: number[] = [];
      const direct: number[] = [];
      const node: number[] = [];
      let same = true;
      let inRg = true;
      for (let round = 0; round < ROUNDS; round++) {
        let t = performance.now();
        const viaRg = await findMatches(workspace, exclude, query, { ripgrep: rg, deadlineMs: 60_000 });
        tandem.push(performance.now() - t);
        t = performance.now();
        const own = await rgDirect(rg, root, query);
        direct.push(performance.now() - t);
        // The Node fallback is slow: one round of it gives its figure.
        if (round === 0) {
          t = performance.now();
          const walked = await findMatches(workspace, exclude, query, { deadlineMs: 60_000 });
          node.push(performance.now() - t);
          same &&= JSON.stringify(walked) === JSON.stringify(viaRg);
        }
        // Every line Tandem answers is one ripgrep finds on its own.
        const found = new Set(own);
        inRg &&= viaRg.matches.every((m) => found.has(`${m.path}:${m.line}`));
      }
      const ratio = median(tandem) / median(direct);
      console.log(
        `BENCH search query=${JSON.stringify(query.query)}${query.regex ? "(regex)" : ""} files=${files} matches=${
          (await findMatches(workspace, exclude, query, { ripgrep: rg })).matches.length
        } tandem_ms=${median(tandem).toFixed(0)} rg_ms=${median(direct).toFixed(0)} ratio=${ratio.toFixed(2)} node_ms=${median(node).toFixed(0)} same=${same ? 1 : 0} in_rg=${inRg ? 1 : 0}`,
      );
    }
  } finally {
    remove();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

/**
 * A generated source tree for comparing the two search paths (and for `npm run bench -- search`):
 * source-like text in nested packages, nested .gitignore files with negations and anchored rules,
 * node_modules and .git folders, binaries (a NUL byte at the start or far in), files over 1 MB,
 * CRLF files, very long lines, non-ASCII text and links. The same seed makes the same tree.
 */

import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { random } from "../../fixtures/random";

const WORDS = [
  "user",
  "fetchUser",
  "answer",
  "Answer",
  "id",
  "value",
  "TODO",
  "todo",
  "café",
  "naïve",
  "config",
  "request",
  "response",
  "handler",
  "foobar",
  "items",
  "index",
  "ÉCOLE",
  "aa",
  "x1",
];

/** The editor's files.exclude used with the tree. */
export const TREE_EXCLUDE = {
  "**/*.snap": true,
  "**/.DS_Store": true,
  "dist/**": true,
  "**/*.js": { when: "$(basename).ts" },
  "**/*.md": false,
} as const;

/** What was made: how many files (all kinds, links not counted). */
export interface Tree {
  files: number;
}

/** Writes about `count` files under `root` from `seed`. */
export function makeTree(root: string, count: number, seed: number): Tree {
  const next = random(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)];
  let files = 0;
  const put = (path: string, content: string | Buffer) => {
    const full = join(root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
    files++;
  };
  const line = () => {
    const n = 2 + Math.floor(next() * 8);
    const words = Array.from({ length: n }, () => pick(WORDS));
    const kind = next();
    if (kind < 0.2) return `export const ${words[0]}${files} = ${JSON.stringify(words.slice(1).join(" "))};`;
    if (kind < 0.35)
      return `export function ${words[0]}(${words[1]}) { return ${words.slice(2).join(" + ")}; }`;
    if (kind < 0.45) return `  // ${words.join(" ")}`;
    if (kind < 0.5) return `\tconst ${words[0]} = await fetch${words[1]}(${words[2] ?? "id"});`;
    return `  ${words.join(" ")}`;
  };
  const source = (lines: number, eol = "\n") => Array.from({ length: lines }, line).join(eol) + eol;

  put(".gitignore", "build/\n*.log\n!keep.log\n/local.txt\n**/cache\n");
  put("local.txt", "answer in an anchored ignore\n");
  put(".env", "TODO=answer hidden file\n");
  put(".git/config", "[core] answer\n");
  put(".DS_Store", "answer\n");
  put("node_modules/lib/index.js", "export const answer = 1;\n");
  put("build/out.ts", "answer in an ignored folder\n");
  put("dist/app.ts", "answer in an excluded folder\n");
  put("-dash/answer.ts", "answer in a folder named like a flag\n");
  put("long.ts", `${"a".repeat(9990)}answer${"b".repeat(100)}\nanswer ${"c".repeat(20_000)}answer\n`);
  put("crlf.md", source(20, "\r\n"));
  put("late-nul.ts", Buffer.concat([Buffer.from(source(400)), Buffer.from([0]), Buffer.from(source(5))]));
  put("far-nul.ts", Buffer.concat([Buffer.from(source(4000)), Buffer.from([0])]));
  put("big.ts", `answer\n${source(60_000)}`);
  put("no-newline.ts", "const answer = 1;");
  put("bad-utf8.ts", Buffer.concat([Buffer.from("answer "), Buffer.from([0xff, 0xfe]), Buffer.from(" x\n")]));
  const packages = Math.max(1, Math.round(count / 250));
  for (let p = 0; files < count; p = (p + 1) % packages) {
    const pkg = `packages/pkg${p}`;
    if (files < packages * 6) {
      put(`${pkg}/.gitignore`, "*.gen.ts\n!keep.gen.ts\n/scratch.ts\nbuild/\n");
      put(`${pkg}/keep.gen.ts`, source(3));
      put(`${pkg}/skip.gen.ts`, source(3));
      put(`${pkg}/scratch.ts`, source(3));
      put(`${pkg}/src/scratch.ts`, source(3));
      put(`${pkg}/node_modules/dep/index.ts`, source(3));
      continue;
    }
    const depth = Math.floor(next() * 4);
    const folders = Array.from({ length: depth }, () =>
      pick(["src", "lib", "util", "cache", "a", "B", "z_9"]),
    );
    const name = `${pick(WORDS)
      .toLowerCase()
      .replace(/[^a-z0-9]/g, "")}${files}`;
    const path = [pkg, ...folders].join("/");
    const kind = next();
    if (kind < 0.004)
      put(`${path}/${name}.bin`, Buffer.concat([Buffer.from([0, 1, 2]), Buffer.from(source(5))]));
    else if (kind < 0.006) put(`${path}/${name}.snap`, source(5));
    else if (kind < 0.012) put(`${path}/${name}.log`, source(5));
    else if (kind < 0.04) put(`${path}/${name}.js`, source(10));
    else if (kind < 0.1) put(`${path}/${name}.md`, source(10));
    else put(`${path}/${name}.ts`, source(5 + Math.floor(next() * 40)));
  }
  symlinkSync(join(root, "long.ts"), join(root, "link.ts"));
  symlinkSync(join(root, "packages"), join(root, "packages-link"));
  return { files };
}

/**
 * The hostile-repository suite's shape: every attack is a way a repository, a fetched page, a plugin
 * or a model that obeys injected text could get around the person. Each `attacks-*.ts` file beside
 * this one exports `attacks`; the suite (`hostile.test.ts`) and `npm run bench -- security` run them
 * all. An attack reports what became of it: done with nobody asked ("succeeded"), stopped for the
 * person ("asked"), or refused outright ("refused").
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";

/** What became of one attack. */
export type Outcome = "succeeded" | "asked" | "refused";

/** One way around the person, tried for real. */
export interface Attack {
  /** What the attacker tries, in a sentence. */
  name: string;
  /** The finding of the security review it belongs to (1–10), if any. */
  finding?: number;
  /** Tries it through the real code and says what became of it; cleans up after itself. */
  attempt(): Promise<Outcome>;
}

/** Every attack of every `attacks-*.ts` file in this folder, in file order (loaded at once, so mocha can list them). */
export function allAttacks(): Attack[] {
  const files = readdirSync(__dirname)
    .filter((f) => /^attacks-.*\.ts$/.test(f))
    .sort();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return files.flatMap((file) => (require(join(__dirname, file)) as { attacks?: Attack[] }).attacks ?? []);
}

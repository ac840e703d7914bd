/**
 * A pseudo-locale for layout tests: every English text of the bundle made about 40% longer, word by
 * word (as German lengthens English), with letters no English word has, so a text shown untranslated
 * stands out. Placeholders, `code`, link targets and $(icons) stay as they are.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Bundle } from "../../src/protocol/l10n";

/** The padding letters: none of them is in an English text. */
export const PSEUDO_LETTERS = "äöüßÄÖÜ";
const KEPT = /(\{[^{}]+\}|`[^`]*`|\]\([^)]*\)|\$\([\w~-]+\))/;

/** `text` with every word about 40% longer (at least one letter more); the parts a translation keeps, kept. */
export function pseudo(text: string): string {
  return text
    .split(KEPT)
    .map((part, i) =>
      i % 2 === 1
        ? part
        : part.replace(
            /[A-Za-z]+/g,
            (word) => word + "äöüß".repeat(3).slice(0, Math.ceil(word.length * 0.4)),
          ),
    )
    .join("");
}

/** The English bundle of the repository, every text in the pseudo-locale. */
export function pseudoBundle(): Bundle {
  const root = resolve(import.meta.dirname, "../..");
  const english = JSON.parse(readFileSync(join(root, "l10n/bundle.l10n.json"), "utf8")) as Record<
    string,
    string
  >;
  return Object.fromEntries(Object.keys(english).map((key) => [key, pseudo(key)]));
}

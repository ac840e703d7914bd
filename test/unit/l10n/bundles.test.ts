/** Every translation has every English key, nothing empty, and the same placeholders, links and code. */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { checkLanguage, placeholders, readBundle, TARGET_LANGUAGES } from "./complete";
import { SHIPPED_LANGUAGES } from "./languages";

const root = join(__dirname, "../../..");
const fixture = join(__dirname, "../../fixtures/l10n");

/** The fields of package.json VS Code shows to the person, which must come from package.nls.json. */
const SHOWN = new Set([
  "title",
  "shortTitle",
  "category",
  "description",
  "markdownDescription",
  "enumDescriptions",
  "markdownEnumDescriptions",
  "deprecationMessage",
  "markdownDeprecationMessage",
  "displayName",
  "fullName",
  "label",
]);

/** Each shown field of the manifest as [path, value]; a view's `name` is shown, a participant's is its handle. */
function shownFields(node: unknown, path: string, out: [string, string][] = []): [string, string][] {
  if (Array.isArray(node)) node.forEach((v, i) => shownFields(v, `${path}[${i}]`, out));
  else if (node && typeof node === "object") {
    for (const [key, value] of Object.entries(node)) {
      const here = `${path}.${key}`;
      const shown = SHOWN.has(key) || (key === "name" && path.startsWith(".contributes.views."));
      if (shown && typeof value === "string") out.push([here, value]);
      else if (shown && Array.isArray(value) && value.every((v) => typeof v === "string")) {
        value.forEach((v: string, i) => out.push([`${here}[${i}]`, v]));
      } else shownFields(value, here, out);
    }
  }
  return out;
}

describe("l10n: translations are complete", () => {
  it("finds placeholders, link targets, code and icons, in any order", () => {
    assert.deepEqual(
      placeholders("Send `a` to {1} and {0}, see [docs](https://x.example/a) $(check) {name}"),
      {
        placeholder: ["{0}", "{1}", "{name}"],
        link: ["https://x.example/a"],
        code: ["a"],
        icon: ["$(check)"],
      },
    );
  });

  it("passes a complete translation and names every fault of an incomplete one (fixture)", () => {
    assert.deepEqual(checkLanguage(fixture, "fr"), []);
    assert.deepEqual(checkLanguage(fixture, "de"), [
      'package.nls.de.json: "command.category" is missing',
      'package.nls.de.json: "command.ask.title" is empty or not a plain string',
      'package.nls.de.json: "configuration.edits.markdownDescription" has links [command:workbench.action.openSettings, https://example.com/bearbeiten], English [command:workbench.action.openSettings, https://example.com/edits]',
      'package.nls.de.json: "configuration.edits.markdownDescription" has codes [propose_edits], English [propose_edit]',
      'package.nls.de.json: "command.extra.title" is not an English key',
      'l10n/bundle.l10n.de.json: "Send the key for {0} to {1}?" has placeholders [{0}, {2}], English [{0}, {1}]',
      'l10n/bundle.l10n.de.json: "Tandem changed {0} files" is empty or not a plain string',
      'l10n/bundle.l10n.de.json: "$(check) Keep" has icons [$(pass)], English [$(check)]',
      'l10n/bundle.l10n.de.json: "{name} is waiting" has placeholders [{Name}], English [{name}]',
      'l10n/bundle.l10n.de.json: "To do: " does not keep the spaces at its ends',
    ]);
    assert.deepEqual(checkLanguage(fixture, "ja"), [
      "package.nls.ja.json is missing",
      "l10n/bundle.l10n.ja.json is missing",
    ]);
  });

  for (const lang of SHIPPED_LANGUAGES) {
    it(`ships ${lang} complete`, () => {
      assert.deepEqual(checkLanguage(root, lang), []);
    });
  }

  it("checks every translation in the repository, and only the languages Tandem targets", () => {
    const onDisk = [
      ...readdirSync(root).flatMap((f) => /^package\.nls\.(.+)\.json$/.exec(f)?.[1] ?? []),
      ...readdirSync(join(root, "l10n")).flatMap((f) => /^bundle\.l10n\.(.+)\.json$/.exec(f)?.[1] ?? []),
    ];
    for (const lang of onDisk) assert.ok(SHIPPED_LANGUAGES.includes(lang), `${lang} is in SHIPPED_LANGUAGES`);
    for (const lang of SHIPPED_LANGUAGES)
      assert.ok((TARGET_LANGUAGES as readonly string[]).includes(lang), lang);
  });

  it("takes every text package.json shows from package.nls.json, and every English key is used", () => {
    const text = readFileSync(join(root, "package.json"), "utf8");
    const english = readBundle(join(root, "package.nls.json"));
    assert.ok(typeof english !== "string", `package.nls.json ${String(english)}`);
    const literal = shownFields(JSON.parse(text), "").filter(([, v]) => !/^%[^%]+%$/.test(v));
    assert.deepEqual(literal, [], "shown fields of package.json that are not %key%");
    const used = new Set([...text.matchAll(/"%([^%"]+)%"/g)].map((m) => m[1]));
    assert.deepEqual(
      [...used].filter((k) => !english.has(k)),
      [],
      "keys package.nls.json lacks",
    );
    assert.deepEqual(
      [...english.keys()].filter((k) => !used.has(k)),
      [],
      "keys package.json does not use",
    );
  });
});

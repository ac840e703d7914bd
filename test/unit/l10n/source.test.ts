/** Every text the code shows through a translation call is in the English bundle translators work from. */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bareTexts, collectMessages, englishBundle, sourceFiles } from "../../../scripts/l10n-messages";

const root = join(__dirname, "../../..");

describe("l10n: the English bundle follows the code", () => {
  it("finds vscode.l10n.t and the protocol's t, under any local name, and refuses a message that is not a literal", () => {
    const dir = mkdtempSync(join(tmpdir(), "tandem-l10n-"));
    const file = join(dir, "shown.ts");
    writeFileSync(
      file,
      [
        'import { t as say } from "../protocol/l10n";',
        'import * as vscode from "vscode";',
        'const a = say("Send {0}", x);',
        "const b = vscode.l10n.t(`Keep All`);",
        'const c = t("not the protocol\'s t");',
        "const d = say(label);",
        'const e = say("Two lines " + "joined");',
      ].join("\n"),
    );
    const found = collectMessages([file], dir);
    assert.deepEqual(found.messages, ["Keep All", "Send {0}", "Two lines joined"]);
    assert.deepEqual(found.problems, ["shown.ts:6: say() needs a string literal as its message"]);
  });

  it("finds a panel text written as a bare literal, and lets t(), names and code through", () => {
    const dir = mkdtempSync(join(tmpdir(), "tandem-l10n-"));
    const file = join(dir, "panel.ts");
    writeFileSync(
      file,
      [
        'const a = h("h2", { text: "Connect a model" });',
        'const b = button("send", "Send", go);',
        'const c = h("select", { "aria-label": `Model to ${verb} with`, title: t("Model") });',
        'el.textContent = ok ? t("Done") : "Failed";',
        'const d = h("code", { text: "AI_URL", class: "muted plain" });',
        'const e = h("div", { "aria-label": "Tandem", text: name || "New conversation" });',
        'post({ type: "send", text: "Continue" });',
      ].join("\n"),
    );
    assert.deepEqual(bareTexts([file], dir), [
      "panel.ts:1: Connect a model",
      "panel.ts:2: Send",
      "panel.ts:3: `Model to ${verb} with`",
      "panel.ts:4: Failed",
      "panel.ts:6: New conversation",
    ]);
  });

  it("writes every text of the panel through t()", () => {
    assert.deepEqual(bareTexts(sourceFiles(join(root, "webview-ui")), root), []);
  });

  it("has l10n/bundle.l10n.json exactly as `npm run l10n` makes it from src/ and webview-ui/", () => {
    const { bundle, problems } = englishBundle(root);
    assert.deepEqual(problems, []);
    const shipped = JSON.parse(readFileSync(join(root, "l10n/bundle.l10n.json"), "utf8")) as unknown;
    assert.deepEqual(shipped, bundle, "run `npm run l10n` and commit l10n/bundle.l10n.json");
  });
});

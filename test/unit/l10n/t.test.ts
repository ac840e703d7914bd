/** The one translation function both sides use, and the bundle the host hands the panel in its page. */
import assert from "node:assert/strict";
import { currentBundle, format, setBundle, t } from "../../../src/protocol/l10n";
import { judgeCommand } from "../../../src/chat/workspace/command-rules";
import { panelHtml } from "../../../src/vscode/panel-page";

describe("l10n: t() and the panel's bundle", () => {
  afterEach(() => setBundle(undefined));

  it("fills {0}, {1} and {name} placeholders, leaving unknown ones and braces of code as written", () => {
    assert.equal(format("Send {0} to {1}", ["a", 2]), "Send a to 2");
    assert.equal(
      format("{name} is {state}", { name: "write_file", state: "waiting" }),
      "write_file is waiting",
    );
    assert.equal(format("{0} and {3}", ["x"]), "x and {3}");
    assert.equal(format('{"a": {0}}', [1]), '{"a": 1}');
    // A value is put in as it is: its own braces are not read as placeholders again.
    assert.equal(format("{0} then {1}", ["{1}", "b"]), "{1} then b");
    assert.equal(format("{toString}", {}), "{toString}");
  });

  it("shows the bundle's translation, and the English where the bundle has none", () => {
    assert.equal(
      t("Send the key for {0} to {1}?", "openai", "https://x.example"),
      "Send the key for openai to https://x.example?",
    );
    setBundle({ "Send the key for {0} to {1}?": "An {1} den Schlüssel für {0} senden?" });
    assert.equal(
      t("Send the key for {0} to {1}?", "openai", "https://x.example"),
      "An https://x.example den Schlüssel für openai senden?",
    );
    assert.equal(t("Allow"), "Allow");
    assert.equal(
      t("constructor"),
      "constructor",
      "a key only an object's prototype has is not a translation",
    );
    assert.deepEqual(currentBundle(), {
      "Send the key for {0} to {1}?": "An {1} den Schlüssel für {0} senden?",
    });
  });

  it("translates what the core tells the person when it is said, in the language set at activation", () => {
    const asked = () => judgeCommand("npm test > out.txt", { allow: [], deny: [] });
    assert.deepEqual(asked(), {
      verdict: "ask",
      why: "No rule can allow it. It holds >: a redirection, subshell, background run or expansion.",
    });
    setBundle({
      "No rule can allow it. {0}": "Keine Regel kann es erlauben. {0}",
      "It holds {0}: a redirection, subshell, background run or expansion.":
        "Es enthält {0}: eine Umleitung, eine Subshell, einen Hintergrundlauf oder eine Expansion.",
    });
    assert.deepEqual(asked(), {
      verdict: "ask",
      why: "Keine Regel kann es erlauben. Es enthält >: eine Umleitung, eine Subshell, einen Hintergrundlauf oder eine Expansion.",
    });
  });

  it("writes the display language and its bundle into the panel's page, escaped, with no inline script", () => {
    const page = {
      cspSource: "https://x",
      nonce: "abcdefghijklmnopqrstuv",
      scriptUri: "https://x/webview.js",
      styleUri: "https://x/webview.css",
      codiconUri: "https://x/codicon.css",
      title: "Tandem",
    };
    assert.match(panelHtml(page), /<html lang="en">[\s\S]*<body data-l10n="\{\}">/);
    const hostile = { Send: '"><script>alert(1)</script>', "Stop & go": "Anhalten <b>" };
    const html = panelHtml({ ...page, language: "de", bundle: hostile });
    assert.match(html, /<html lang="de">/);
    assert.doesNotMatch(html, /<script>alert/);
    assert.equal((html.match(/<script/g) ?? []).length, 1, "only the nonce's script");
    const attribute = /data-l10n="([^"]*)"/.exec(html)?.[1] ?? "";
    const decoded = attribute
      .replaceAll("&quot;", '"')
      .replaceAll("&#39;", "'")
      .replaceAll("&lt;", "<")
      .replaceAll("&gt;", ">")
      .replaceAll("&amp;", "&");
    assert.deepEqual(JSON.parse(decoded), hostile);
    assert.match(panelHtml({ ...page, language: 'de"><x' }), /<html lang="de&quot;&gt;&lt;x">/);
  });
});

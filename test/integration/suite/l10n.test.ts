import assert from "node:assert/strict";
import * as vscode from "vscode";

const ID = "tandem-dev.tandem";

/** The manifest as VS Code read it, in the parts this test looks at. */
interface Manifest {
  displayName: string;
  contributes: {
    commands: { command: string; title: string; category?: string }[];
    configuration: { properties: Record<string, { markdownDescription?: string; description?: string }> };
  };
}

describe("Tandem's texts in VS Code", () => {
  it("shows the manifest's titles and settings from package.nls.json, none as a %key%", () => {
    const ext = vscode.extensions.getExtension(ID);
    assert.ok(ext, "the extension is installed");
    const manifest = ext.packageJSON as Manifest;
    assert.equal(manifest.displayName, "Tandem");
    const ask = manifest.contributes.commands.find((c) => c.command === "tandem.ask");
    assert.deepEqual([ask?.category, ask?.title], ["Tandem", "Ask…"]);
    assert.match(
      manifest.contributes.configuration.properties["tandem.endpoints"].markdownDescription ?? "",
      /^OpenAI-compatible endpoints Tandem may use\./,
    );
    assert.deepEqual(JSON.stringify(manifest).match(/"%[\w.-]+%"/g), null, "no text is left as its key");
  });
});

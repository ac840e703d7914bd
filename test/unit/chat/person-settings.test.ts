/** The settings only the person may set: the manifest's scopes, the levels read, and what is reported. */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  IgnoredReports,
  personSettingsIn,
  personValue,
  setByWorkspace,
  stricterLimit,
  PERSON_ONLY,
} from "../../../src/chat/assistants/person-settings";

interface Manifest {
  contributes: { configuration: { properties: Record<string, { scope?: string; description?: string }> } };
  capabilities: { untrustedWorkspaces: { restrictedConfigurations?: string[] } };
}

const manifest = JSON.parse(readFileSync(join(__dirname, "../../../package.json"), "utf8")) as Manifest;

describe("chat: the person's settings, not the repository's", () => {
  it("declares every person-only setting application-scoped and restricted in untrusted workspaces", () => {
    const properties = manifest.contributes.configuration.properties;
    for (const name of PERSON_ONLY) {
      assert.ok(properties[name], `${name} is a setting`);
      assert.equal(properties[name].scope, "application", name);
    }
    assert.deepEqual(
      [...(manifest.capabilities.untrustedWorkspaces.restrictedConfigurations ?? [])].sort(),
      [...PERSON_ONLY].sort(),
    );
  });

  it("reads the person's value, never a workspace's or a folder's", () => {
    const hostile = [{ name: "openai", baseURL: "https://collect.example/v1" }];
    const own = [{ name: "openai", baseURL: "https://api.openai.com/v1" }];
    assert.deepEqual(personValue({ defaultValue: [], globalValue: own, workspaceValue: hostile }), own);
    assert.deepEqual(personValue({ defaultValue: [], workspaceFolderValue: hostile }), []);
    assert.equal(personValue({ defaultValue: false, workspaceValue: true }), false);
    assert.equal(personValue(undefined), undefined);
    assert.equal(setByWorkspace({ defaultValue: false, workspaceValue: true }), true);
    assert.equal(setByWorkspace({ defaultValue: false, workspaceFolderValue: true }), true);
    assert.equal(setByWorkspace({ defaultValue: false, globalValue: true }), false);
  });

  it("lets a repository tighten a limit, never loosen it", () => {
    // Rounds: a repository asking for 200 rounds gets the person's 16; asking for 4 gets 4.
    assert.equal(stricterLimit({ defaultValue: 16, workspaceValue: 200 }), 16);
    assert.equal(stricterLimit({ defaultValue: 16, globalValue: 30, workspaceFolderValue: 200 }), 30);
    assert.equal(stricterLimit({ defaultValue: 16, workspaceValue: 4 }), 4);
    assert.equal(stricterLimit({ defaultValue: 16, workspaceValue: 8, workspaceFolderValue: 2 }), 2);
    // Tokens and seconds, where 0 is "no limit": a repository cannot lift the person's cap with 0.
    assert.equal(stricterLimit({ defaultValue: 0, globalValue: 5000, workspaceValue: 0 }, true), 5000);
    assert.equal(stricterLimit({ defaultValue: 0, workspaceValue: 300 }, true), 300);
    assert.equal(stricterLimit({ defaultValue: 0, globalValue: 100, workspaceValue: 300 }, true), 100);
    // Nonsense from a settings file is not a limit.
    assert.equal(stricterLimit({ defaultValue: 16, workspaceValue: -1 }), 16);
    assert.equal(stricterLimit({ defaultValue: 16, workspaceValue: Number.NaN }), 16);
    assert.equal(stricterLimit(undefined), undefined);
  });

  it("finds the person-only settings a settings file sets: dotted, nested, with comments and trailing commas", () => {
    const text = `{
      // the repository's settings
      "editor.tabSize": 2,
      "tandem.endpoints": [{ "name": "openai", "baseURL": "https://x.example/v1", }],
      /* a block comment with "tandem.localServers": true */
      "tandem": { "approval": { "create_file": "allow" }, "execute": { "port": 8080 } },
      "tandem.execute": { "autoStart": true },
      "tandem.limits.rounds": 100,
      "url": "https://a.example/*not a comment*/",
    }`;
    assert.deepEqual(personSettingsIn(text), [
      "tandem.endpoints",
      "tandem.approval",
      "tandem.execute.autoStart",
      "tandem.execute.port",
    ]);
  });

  it("reads a .code-workspace file's settings, and nothing from a file that is not JSON", () => {
    const workspace = JSON.stringify({
      folders: [{ path: "." }],
      settings: { "tandem.plugins.allowPrivateAddresses": true, "tandem.defaultModel": "x" },
    });
    assert.deepEqual(personSettingsIn(workspace, "settings"), [
      "tandem.defaultModel",
      "tandem.plugins.allowPrivateAddresses",
    ]);
    assert.deepEqual(personSettingsIn("{ not json"), []);
    assert.deepEqual(personSettingsIn(""), []);
  });

  it("reports each ignored setting of each file once", () => {
    const reports = new IgnoredReports();
    const file = ".vscode/settings.json";
    assert.deepEqual(reports.fresh([{ file, settings: ["tandem.endpoints", "tandem.approval"] }]), [
      { file, settings: ["tandem.endpoints", "tandem.approval"] },
    ]);
    assert.deepEqual(reports.fresh([{ file, settings: ["tandem.endpoints", "tandem.approval"] }]), []);
    assert.deepEqual(
      reports.fresh([
        { file, settings: ["tandem.endpoints", "tandem.execute.port"] },
        { file: "other.code-workspace", settings: ["tandem.endpoints"] },
        { file: "empty", settings: [] },
      ]),
      [
        { file, settings: ["tandem.execute.port"] },
        { file: "other.code-workspace", settings: ["tandem.endpoints"] },
      ],
    );
  });
});

import assert from "node:assert/strict";
import * as vscode from "vscode";

interface Api {
  tools(): Promise<Array<{ name: string; readOnly: boolean }>>;
}

/** The third phase: a VS Code that asks about workspace trust, on a folder nobody trusted. */
describe("in an untrusted workspace", () => {
  it("runs in restricted mode and offers only tools that read", async () => {
    assert.equal(vscode.workspace.isTrusted, false);
    const ext = vscode.extensions.getExtension<Api>("tandem-dev.tandem")!;
    await ext.activate();
    const tools = await ext.exports.tools();
    const names = tools.map((t) => t.name);
    assert.ok(names.includes("read_file") && names.includes("search_text"), names.join(", "));
    for (const writer of ["propose_edit", "create_file", "run_command"])
      assert.ok(!names.includes(writer), `${writer} is offered`);
    assert.deepEqual(
      tools.filter((t) => !t.readOnly).map((t) => t.name),
      [],
    );
  });
});

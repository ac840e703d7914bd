/**
 * The person's own assistants, kept for every workspace in a file of the extension's global
 * storage: listed in the panel with where each comes from, saved and moved from the panel, run
 * as the person's (their instructions and model), and never replaced by a repository's assistant
 * of the same name.
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { says, scripted } from "../../../src/agent/scripted";
import { readAssistantFiles } from "../../../src/chat/assistants/assistant-files";
import { asked, conversation } from "../../../src/chat/make";
import { PersonAssistants } from "../../../src/chat/assistants/person";
import { PanelView, type ViewHost } from "../../../src/chat/panel/view";
import type { HostMessage } from "../../../src/protocol/messages";
import { write } from "../workspace/fixtures";
import { bench, hostOf } from "./runner-fixture";
import { eachTest } from "../../fixtures/run-scene";
import { recordingHost } from "../../fixtures/view-host";

/** A panel host over `person` (and the repository `root`'s assistants), recording what it sends. */
function hostWith(person: PersonAssistants, sent: HostMessage[], root?: string): ViewHost {
  return recordingHost(sent, {
    person,
    assistants: async () => (root ? (await readAssistantFiles([root])).assistants : []),
  });
}

const mine = { name: "Reviewer", instructions: "Review as I like it.", model: "", tools: "", approve: "" };

describe("the person's assistants for every workspace", () => {
  const scene = eachTest();
  const dir = (): string => scene.folder("tandem-person-");

  it("keeps, lists and removes them in one file, which two windows (two instances) share", async () => {
    const file = join(dir(), "global", "assistants.json");
    const one = new PersonAssistants(file);
    const other = new PersonAssistants(file);
    assert.deepEqual(await one.list(), []);
    const kept = await one.save({ id: "a1", ...mine });
    assert.equal(kept.id, "user:a1");
    assert.deepEqual(await other.list(), [{ id: "user:a1", ...mine, source: "user" }]);
    await other.save({ ...kept, instructions: "Changed." });
    assert.equal((await one.list())[0].instructions, "Changed.");
    assert.equal(await one.remove("user:a1"), true);
    assert.deepEqual(await other.list(), []);
  });

  it("says so when the file is not Tandem's, and leaves it as it is", async () => {
    const file = join(dir(), "assistants.json");
    writeFileSync(file, "not json");
    await assert.rejects(
      new PersonAssistants(file).list(),
      /is not a file of Tandem's assistants; it is left as it is/,
    );
    await assert.rejects(new PersonAssistants(file).save({ id: "a1", ...mine }), /not a file of Tandem's/);
    assert.equal(readFileSync(file, "utf8"), "not json");

    // The panel says it in words, without the error's class name, and lists the others.
    scene.bench = await bench(hostOf({ default: scripted([says("Title")]) }));
    const sent: HostMessage[] = [];
    const view = new PanelView(
      scene.bench.store,
      scene.bench.runner,
      hostWith(new PersonAssistants(file), sent, dir()),
    );
    await view.receive({ type: "ready" });
    const notice = sent.find((m) => m.type === "notice");
    assert.deepEqual(notice, {
      type: "notice",
      level: "warning",
      text: `Your assistants cannot be listed: ${file} is not a file of Tandem's assistants; it is left as it is.`,
    });
    view.dispose();
  });

  it("lists them in the panel with where each comes from; a repository's of the same name is listed beside, never instead", async () => {
    const root = dir();
    write(root, { ".tandem/assistants/reviewer.md": "---\nname: Reviewer\n---\nThe repository's words." });
    const person = new PersonAssistants(join(dir(), "assistants.json"));
    await person.save({ id: "a1", ...mine });
    const model = scripted([says("Reviewed."), says("Title")]);
    scene.bench = await bench(hostOf({ default: model }, { personAssistants: () => person.list() }));
    const sent: HostMessage[] = [];
    const view = new PanelView(scene.bench.store, scene.bench.runner, hostWith(person, sent, root));
    await view.receive({ type: "ready" });
    const snapshot = sent.find((m) => m.type === "snapshot");
    assert.ok(snapshot?.type === "snapshot");
    assert.deepEqual(
      snapshot.assistants.map((a) => [a.id, a.name, a.source ?? "workspace"]),
      [
        [scene.bench.store.rows("assistants")[0].id, "Helper", "workspace"],
        ["user:a1", "Reviewer", "user"],
        ["repo:.tandem/assistants/reviewer.md", "Reviewer", "repository"],
      ],
    );
    // A conversation with the person's Reviewer is answered with the person's words.
    const row = conversation("user:a1");
    scene.bench.store.put("conversations", row);
    await scene.bench.send(asked("Review", row.id));
    assert.match(model.requests[0].instructions, /^Review as I like it\./);
    assert.doesNotMatch(model.requests[0].instructions, /The repository's words/);
  });

  it("saves from the panel for every workspace, moving a workspace's assistant there and back", async () => {
    const person = new PersonAssistants(join(dir(), "assistants.json"));
    scene.bench = await bench(hostOf({ default: scripted([]) }));
    scene.bench.store.put("assistants", { id: "w2", ...mine });
    const sent: HostMessage[] = [];
    const view = new PanelView(scene.bench.store, scene.bench.runner, hostWith(person, sent));
    await view.receive({ type: "saveAssistant", assistant: { id: "w2", ...mine, source: "user" } });
    assert.deepEqual(
      (await person.list()).map((a) => a.id),
      ["user:w2"],
    );
    assert.equal(scene.bench.store.get("assistants", "w2"), undefined, "moved, not copied");
    // The panel is given the person's row (and, from the store, the workspace's row gone).
    assert.ok(
      sent.some(
        (m) =>
          m.type === "rows" &&
          m.table === "assistants" &&
          JSON.stringify(m.put) === JSON.stringify([{ id: "user:w2", ...mine, source: "user" }]),
      ),
    );
    await view.receive({ type: "saveAssistant", assistant: { id: "user:w2", ...mine, name: "Back" } });
    assert.deepEqual(await person.list(), []);
    assert.equal(scene.bench.store.get("assistants", "w2")?.name, "Back");
    await view.receive({ type: "saveAssistant", assistant: { id: "w3", ...mine, source: "user" } });
    await view.receive({ type: "deleteAssistant", id: "user:w3" });
    assert.deepEqual(await person.list(), []);
    assert.deepEqual(sent.at(-1), { type: "rows", table: "assistants", put: [], delete: ["user:w3"] });
    view.dispose();
  });
});

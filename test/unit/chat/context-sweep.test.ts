/**
 * Kept context files (pasted images, `@` references written out) leave with their conversation
 * once its deletion is final, stay while another conversation refers to them, and files no message
 * refers to are swept (on activation) unless they were kept a moment ago.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { says, scripted } from "../../../src/agent/scripted";
import { Kept } from "../../../src/chat/panel/context-refs";
import { knowingNothing } from "./editor-context";
import { sweepKept } from "../../../src/chat/panel/context-sweep";
import { PanelView, type ViewHost } from "../../../src/chat/panel/view";
import { bench, hostOf, until, type Bench } from "./runner-fixture";
import { recordingHost } from "../../fixtures/view-host";

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

/** An editor that knows nothing (these tests keep their own files). */
const NOTHING = knowingNothing();

/** A panel's host whose context files are kept in `storage`. */
function panelHost(storage: string): ViewHost {
  return recordingHost([], { context: { editor: NOTHING, folder: storage } });
}

describe("kept context files: cleaned with their conversation, orphans swept", () => {
  let b: Bench | undefined;
  let storage = "";
  beforeEach(async () => {
    storage = await mkdtemp(join(tmpdir(), "tandem-sweep-"));
  });
  afterEach(async () => {
    await b?.end();
    b = undefined;
    await rm(storage, { recursive: true, force: true });
  });

  const onDisk = async () => (await readdir(join(storage, "context")).catch(() => [] as string[])).sort();

  it("removes a deleted conversation's pasted image and text once the deletion is final, keeping one another conversation shares", async () => {
    const kept = new Kept(storage);
    const model = scripted(Array.from({ length: 6 }, () => says("Seen.")));
    b = await bench(
      hostOf(
        { default: model },
        { files: (path, name) => kept.attachment(path, name) ?? { name, type: "", path } },
      ),
    );
    const view = new PanelView(b.store, b.runner, panelHost(storage));
    const image = await kept.image(`data:image/png;base64,${PNG.toString("base64")}`, "shot");
    const terminal = await kept.keep("Terminal output", "md", "only in the first conversation");
    const first = await view.send("", "Look", [image, terminal], "", "");
    await view.send("", "Look again", [image], "", "");
    await b.runner.idle();
    const imageFile = image.path.slice("tandem-context:".length);
    const terminalFile = terminal.path.slice("tandem-context:".length);
    assert.deepEqual(await onDisk(), [imageFile, terminalFile].sort());

    // Undone within the window: every file is still there for the conversation that came back.
    await view.receive({ type: "deleteChat", chat: first });
    await view.receive({ type: "undoDelete", chat: first });
    assert.deepEqual(await onDisk(), [imageFile, terminalFile].sort());

    // Deleted, and the panel closed: the deletion is final.
    await view.receive({ type: "deleteChat", chat: first });
    view.dispose();
    await until(
      () => !existsSync(join(storage, "context", terminalFile)),
      "the first conversation's text to go",
    );
    assert.deepEqual(await onDisk(), [imageFile], "the image the other conversation sends stays");
  });

  it("sweeps kept files no message refers to, leaving recent ones and anything that is not a kept file", async () => {
    const kept = new Kept(storage);
    const used = await kept.keep("Selection", "md", "used");
    const orphan = await kept.keep("Selection", "md", "orphan");
    const recent = await kept.keep("Selection", "md", "recent");
    await writeFile(join(storage, "context", "notes.txt"), "not Tandem's");
    const name = (ref: { path: string }) => ref.path.slice("tandem-context:".length);
    const old = new Date("2020-01-01T00:00:00Z");
    for (const ref of [used, orphan]) await utimes(join(storage, "context", name(ref)), old, old);
    const model = scripted([says("Seen."), says("Title")]);
    b = await bench(
      hostOf(
        { default: model },
        { files: (path, n) => kept.attachment(path, n) ?? { name: n, type: "", path } },
      ),
    );
    const view = new PanelView(b.store, b.runner, panelHost(storage));
    await view.send("", "Look", [used], "", "");
    await b.runner.idle();
    view.dispose();
    // Written after 2021 counts as recent here: the sweep leaves what a sending message may hold.
    const removed = await sweepKept(
      storage,
      b.store.rows("items"),
      new Date("2021-01-01T00:00:00Z").getTime(),
    );
    assert.deepEqual(removed, [name(orphan)]);
    assert.deepEqual(await onDisk(), [name(used), name(recent), "notes.txt"].sort());
  });
});

import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TurnCheckpoints, type CheckpointSettings } from "../../../src/chat/checkpoints/turns";
import { asked } from "../../../src/chat/make";
import { folder, write } from "../workspace/fixtures";

describe("checkpoint settings apply to the next checkpoint, without a reload", () => {
  let ws: { path: string; remove: () => void } | undefined;
  let storage: { path: string; remove: () => void } | undefined;
  let turns: TurnCheckpoints | undefined;
  afterEach(async () => {
    await turns?.close();
    ws?.remove();
    storage?.remove();
    turns = ws = storage = undefined;
  });

  it("follows the person turning checkpoints on, and changing the file and total limits", async () => {
    ws = folder();
    storage = folder("tandem-storage-");
    const root = ws.path;
    const big = randomBytes(3 * 1024);
    write(root, { "small.txt": "small\n", "big.bin": big });
    // The person's settings as VS Code reads them: fresh at each call.
    const now: CheckpointSettings = { enabled: false, maxFileBytes: 1024, maxTotalBytes: 64 * 1024 * 1024 };
    const t = (turns = new TurnCheckpoints({
      folders: () => [{ root, name: "ws" }],
      storage: storage.path,
      settings: () => ({ ...now }),
    }));
    const chat = "c";
    const bigIn = async (message: ReturnType<typeof asked>) => {
      const [target] = await t.targets(message);
      return (await t.read(root, target.checkpoint.id, "big.bin"))?.kind;
    };

    const off = asked("While off", chat);
    await t.before(off);
    assert.deepEqual(await t.targets(off), [], "no checkpoint while they are off");

    now.enabled = true;
    const first = asked("First", chat);
    await t.before(first);
    assert.equal(await bigIn(first), "not kept", "larger than 1 KB: noted, not kept");

    now.maxFileBytes = 1024 * 1024;
    const second = asked("Second", chat);
    await t.before(second);
    assert.equal(await bigIn(second), "file", "the new file limit keeps it");
    writeFileSync(join(root, "big.bin"), "changed");
    await t.restore(second);
    assert.deepEqual(readFileSync(join(root, "big.bin")), big, "and a restore puts it back");

    now.maxFileBytes = 1024;
    const third = asked("Third", chat);
    await t.before(third);
    assert.equal(await bigIn(third), "not kept", "a lower limit applies to a file that did not change");

    const store = await t.store({ root, name: "ws" });
    assert.ok(store.list(chat).length > 3);
    now.maxTotalBytes = 1;
    const fourth = asked("Fourth", chat);
    await t.before(fourth);
    assert.deepEqual(
      store.list(chat).map((c) => c.label),
      ["“Fourth”"],
      "past the new total the oldest are dropped",
    );
  });
});

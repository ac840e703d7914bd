import assert from "node:assert/strict";
import { checkpointBefore } from "../../../src/chat/runner/checkpoint-once";

describe("an answer's one checkpoint: before its first call that may write", () => {
  it("is taken once, on the first call that is not the chat's own, and every later call waits for it", async () => {
    const order: string[] = [];
    let finish = (): void => undefined;
    const before = checkpointBefore(
      () => {
        order.push("taken");
        return new Promise<void>((resolve) => (finish = resolve));
      },
      new Set(["remember", "update_plan"]),
      () => order.push("failed"),
    );
    assert.equal(before("remember"), undefined, "a tool that writes only the store takes none");
    const first = before("propose_edit");
    const second = before("run_command");
    assert.ok(first && second);
    assert.equal(first, second, "the second call waits for the same checkpoint");
    void first.then(() => order.push("edit runs"));
    void second.then(() => order.push("command runs"));
    await Promise.resolve();
    assert.deepEqual(order, ["taken"], "no call runs before the checkpoint is done");
    finish();
    await first;
    assert.deepEqual(order, ["taken", "edit runs", "command runs"]);
  });

  it("says a failed checkpoint and lets the call go on", async () => {
    const failed: string[] = [];
    const before = checkpointBefore(
      () => Promise.reject(new Error("disk full")),
      new Set(),
      (error) => failed.push(error instanceof Error ? error.message : String(error)),
    );
    await before("create_file");
    await before("propose_edit");
    assert.deepEqual(failed, ["disk full"], "said once, and the calls were not stopped");
  });

  it("waits for nothing when there are no checkpoints", () => {
    assert.equal(checkpointBefore(undefined, new Set(), () => undefined)("propose_edit"), undefined);
  });
});

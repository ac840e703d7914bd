import assert from "node:assert/strict";
import { asked } from "../../../src/chat/make";
import { storeFolder } from "./store-fixture";

describe("chat store: the periodic sync", () => {
  const tmp = storeFolder("tandem-store-sync-", { syncMs: 1 });

  it("says once that changes could not be made safe on disk, instead of dropping the failure", async () => {
    const problems: string[] = [];
    const store = await tmp.opened({ onProblem: (text) => problems.push(text) });
    // The disk fails the sync (EIO) while the writes themselves go through.
    const fh = store["appender"]?.["fh"];
    assert.ok(fh, "the writer has its journal open");
    const datasync = fh.datasync.bind(fh);
    // One promise for each failed sync, resolved as it fails.
    const told: (() => void)[] = [];
    const failed = [0, 1].map(() => new Promise<void>((resolve) => told.push(resolve)));
    let failures = 0;
    fh.datasync = () => {
      told[failures++]?.();
      return Promise.reject(new Error("EIO: i/o error, fdatasync"));
    };
    store.put("items", asked("first", "c1"));
    await failed[0];
    store.put("items", asked("second", "c1"));
    await failed[1];
    // The second failure's rejection is handled within this turn of the event loop.
    await new Promise((resolve) => setImmediate(resolve));
    fh.datasync = datasync;
    assert.equal(problems.length, 1, problems.join("\n"));
    assert.match(
      problems[0],
      /could not make its latest conversation changes safe on disk \(EIO: i\/o error, fdatasync\)/,
    );
    assert.deepEqual(store.problems, problems);
  });
});

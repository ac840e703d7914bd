import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { crashRounds } from "../../fixtures/crash-rounds";

describe("the store killed at random moments", function () {
  // About 40 s on an idle two-core machine (each child's start-up is most of it); more when loaded.
  this.timeout(600_000);
  let folder: string;
  const stop = new AbortController();
  before(async () => (folder = await mkdtemp(join(tmpdir(), "tandem-crash-"))));
  after(async () => {
    stop.abort();
    await rm(folder, { recursive: true, force: true });
  });

  it("keeps every message acknowledged as durable, 100 kills in a row", async () => {
    const result = await crashRounds(folder, 100, 4, stop.signal);
    console.log(`BENCH store-crash kills=${result.kills} lost=${result.lost} acked=${result.acked}`);
    assert.equal(result.kills, 100);
    assert.ok(result.acked > 50, `only ${result.acked} messages were acknowledged`);
    assert.deepEqual(result.missing, [], `lost with seed ${result.seed}`);
  });
});

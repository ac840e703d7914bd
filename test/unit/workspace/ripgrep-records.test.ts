import assert from "node:assert/strict";
import { records } from "../../../src/chat/workspace/ripgrep";

describe("ripgrep's output cut into records", () => {
  it("keeps a character whole when a chunk of output ends in the middle of it", () => {
    const bytes = Buffer.from('{"text":"ÉCOLE 中文"}\n{"text":"next"}\n', "utf8");
    // Every place a chunk could end, the middle of É (2 bytes) and of 中 (3 bytes) included.
    for (let cut = 1; cut < bytes.length; cut++) {
      const take = records(0x0a);
      const got = [...take(bytes.subarray(0, cut)), ...take(bytes.subarray(cut))];
      assert.deepEqual(got, ['{"text":"ÉCOLE 中文"}', '{"text":"next"}'], `cut at byte ${cut}`);
    }
  });

  it("gives a record only once it is ended, and paths ended by NUL", () => {
    const take = records(0);
    assert.deepEqual(take(Buffer.from("a/é.txt\0b/par")), ["a/é.txt"]);
    assert.deepEqual(take(Buffer.from("tial.txt\0")), ["b/partial.txt"]);
    assert.deepEqual(take(Buffer.alloc(0)), []);
  });
});

import assert from "node:assert/strict";
import { rowChanged, type RowsChanged } from "../../../src/protocol/messages";
import type { Skill } from "../../../src/protocol/rows";

describe("protocol: host messages built by their constructors", () => {
  it("tells one row put, or one key deleted, typed by its table", () => {
    const skill: Skill = { id: "s1", name: "review", description: "Reviews.", body: "Read it." };
    const put: RowsChanged<"skills"> = rowChanged("skills", "s1", skill);
    assert.deepEqual(put, { type: "rows", table: "skills", put: [skill], delete: [] });
    assert.deepEqual(rowChanged("skills", "s1", null), {
      type: "rows",
      table: "skills",
      put: [],
      delete: ["s1"],
    });
    // @ts-expect-error A row of another table is not a row of this one: the compiler refuses it.
    rowChanged("conversations", "s1", skill);
  });
});

import assert from "node:assert/strict";
import { says, scripted } from "../../../src/agent/scripted";
import { asked } from "../../../src/chat/make";
import type { Rows, Table } from "../../../src/chat/row-schemas";
import { answerOf, bench, hostOf, until, type Bench } from "./runner-fixture";

describe("chat runner: a write that fails mid-answer", () => {
  let b: Bench | undefined;
  afterEach(async () => {
    await b?.end();
    b = undefined;
  });

  it("ends with an error item that says why, even when the first error item could not be written", async () => {
    const problems: string[] = [];
    let ended = false;
    b = await bench(
      hostOf(
        { default: scripted([says("A long answer.")]) },
        { problem: (t) => problems.push(t), running: (_chat, running) => void (ended ||= !running) },
      ),
    );
    const store = b.store;
    // The disk refuses the answer's text and the next item (the error that says so), then takes writes again.
    const put = store.put.bind(store);
    let refusals = 0;
    store.put = <T extends Table>(table: T, row: Rows[T]): void => {
      if (table === "items" && "kind" in row && refusals < 2 && (row.kind === "text" || refusals > 0)) {
        refusals++;
        throw new Error("ENOSPC: no space left on device");
      }
      put(table, row);
    };
    const chat = b.chat();
    const user = asked("Hi", chat);
    store.put("items", user);
    // The run ends (its end is told) whatever the store took of it.
    await until(() => ended, "the run to end");
    const said = [
      ...answerOf(store, chat, user.id).map((i) => `${i.kind}:${i.text}`),
      ...problems.map((p) => `problem:${p}`),
    ];
    assert.ok(
      said.some((line) => /^(error|problem):.*ENOSPC: no space left on device/.test(line)),
      `nothing says the write failed: ${JSON.stringify(said)}`,
    );
  });
});

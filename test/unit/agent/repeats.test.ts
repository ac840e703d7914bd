import assert from "node:assert/strict";
import { z } from "zod";
import { agent, calls, run, says, scripted, tool, type Piece } from "../../../src/agent";
import { limitNote } from "../../../src/agent/limit-note";
import { readFileSync } from "node:fs";
import { setBundle, type Bundle } from "../../../src/protocol/l10n";

/** A tool that fails on a missing file and reads "ok.txt". */
const read = tool("read_file", "Reads a file.", z.object({ path: z.string() }), ({ path }) => {
  if (path !== "ok.txt") throw new Error(`Cannot read ${path}: the file does not exist.`);
  return "the words";
});

const again = (path: string) => calls([["read_file", JSON.stringify({ path })]]);

async function pieces(turns: Parameters<typeof scripted>[0]): Promise<{ seen: Piece[]; asked: number }> {
  const model = scripted(turns);
  const a = agent(model, "", [read]);
  const seen: Piece[] = [];
  await run(a, "go", { each: (p) => seen.push(p) });
  return { seen, asked: model.requests.length };
}

describe("agent: the same failing call made again", () => {
  it("ends the run at the third same call with the same error, with a note that says so", async () => {
    const { seen, asked } = await pieces([
      again("gone.txt"),
      again("gone.txt"),
      again("gone.txt"),
      again("gone.txt"),
      says("never asked"),
    ]);
    const error = "Cannot read gone.txt: the file does not exist.";
    assert.deepEqual(seen.at(-1), {
      kind: "stopped",
      text: "",
      limit: "repeats",
      call: { name: "read_file", error },
    });
    assert.equal(asked, 3, "no fourth round fills the window with the same call");
    assert.equal(seen.filter((p) => p.kind === "failed").length, 3);
    const limits = { rounds: 16, maxTokens: 0, maxMs: 0 };
    assert.equal(
      limitNote("repeats", limits, { name: "read_file", error }),
      `Stopped: the model called read_file three times with the same arguments and got the same error each time: ${error}`,
    );
  });

  it("reads the same arguments whatever their spacing", async () => {
    const spaced = calls([["read_file", '{ "path" : "gone.txt" }']]);
    const { seen } = await pieces([again("gone.txt"), spaced, again("gone.txt"), says("never asked")]);
    const last = seen.at(-1);
    assert.deepEqual([last?.kind, last?.kind === "stopped" && last.limit], ["stopped", "repeats"]);
  });

  it("a different argument or a success between them resets the count", async () => {
    const { seen, asked } = await pieces([
      again("gone.txt"),
      again("gone.txt"),
      again("other.txt"),
      again("gone.txt"),
      again("ok.txt"),
      again("gone.txt"),
      again("gone.txt"),
      says("Done."),
    ]);
    assert.deepEqual(seen.at(-1), { kind: "done", text: "Done.", limit: undefined });
    assert.equal(asked, 8);
  });

  it("the note is translated", () => {
    setBundle(JSON.parse(readFileSync("l10n/bundle.l10n.de.json", "utf8")) as Bundle);
    try {
      const note = limitNote(
        "repeats",
        { rounds: 16, maxTokens: 0, maxMs: 0 },
        { name: "read_file", error: "x" },
      );
      assert.ok(!note.startsWith("Stopped:"), note);
      assert.ok(note.includes("read_file"));
    } finally {
      setBundle(undefined);
    }
  });
});

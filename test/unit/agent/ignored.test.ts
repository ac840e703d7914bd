import assert from "node:assert/strict";
import { z } from "zod";
import { agent, calls, run, says, tool, type Piece } from "../../../src/agent";
import { deaf } from "./helpers";

const echo = tool("echo", "Echo.", z.object({}), () => "echoed", { readOnly: true });

describe("agent: settings a model cannot apply", () => {
  it("the run says once which settings were left out, in the names the person sets them by", async () => {
    const a = agent(deaf([calls([["echo", "{}"]]), says("Done.")]), "", [echo]);
    a.parameters = { temperature: 0.2, topP: 0.9, stop: ["END"] };
    const pieces: Piece[] = [];
    await run(a, "go", { each: (p) => pieces.push(p) });
    assert.deepEqual(
      pieces.filter((p) => p.kind === "note"),
      [
        {
          kind: "note",
          text: "Copilot GPT-4o cannot apply these settings, so they were left out: temperature, top_p.",
        },
      ],
      "once, though the model was asked twice",
    );
    assert.equal(pieces[0].kind, "note", "said before the model's words");
  });

  it("a model that applies what it is given says nothing", async () => {
    const a = agent(deaf([says("Done.")]));
    a.parameters = { stop: ["END"] };
    const pieces: Piece[] = [];
    await run(a, "go", { each: (p) => pieces.push(p) });
    assert.deepEqual(
      pieces.map((p) => p.kind),
      ["text", "text", "done"],
    );
  });
});

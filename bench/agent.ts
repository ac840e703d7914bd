// The agent loop's own cost, and what `run` adds to the time to the first token.
//   BENCH agent-loop overhead_us_per_round=… parallel_ratio=…   (goal: parallel_ratio ≤ 1.2)
//   BENCH first-token added_ms=…                                 (goal: ≤ 2 ms)
import OpenAI from "openai";
import { z } from "zod";
import { agent, calls, endpoint, run, says, scripted, tool, type Message, type Turn } from "../src/agent";
import { answer, openaiServer } from "../test/fixtures/openai-server";

const noop = tool("noop", "Does nothing.", z.object({}), () => "ok", { readOnly: true });

const ROUNDS = 10;
const turns = (): Turn[] => [...Array.from({ length: ROUNDS }, () => calls([["noop", "{}"]])), says("end")];

/** Microseconds a round of `run` takes beyond calling the model and the tool directly (runs of 10 rounds). */
async function overhead(runs: number): Promise<{ loop: number; base: number }> {
  const signal = new AbortController().signal;
  // Baseline: the same scripted turns and tool calls, with the same growing conversation, without the loop.
  let t0 = performance.now();
  for (let r = 0; r < runs; r++) {
    const direct = scripted(turns());
    const messages: Message[] = [{ role: "user", text: "go" }];
    for (let i = 0; i <= ROUNDS; i++) {
      const turn = await direct.turn({ instructions: "", messages, tools: [], answer: false }, () => true);
      messages.push({ role: "assistant", text: turn.text, calls: turn.calls });
      for (const call of turn.calls)
        messages.push({ role: "tool", call: call.id, text: await noop.run(call.arguments, signal) });
    }
  }
  const base = ((performance.now() - t0) * 1000) / (runs * ROUNDS);
  t0 = performance.now();
  for (let r = 0; r < runs; r++)
    await run(agent(scripted(turns()), "", [noop]), "go", { each: () => undefined });
  const loop = ((performance.now() - t0) * 1000) / (runs * ROUNDS);
  return { loop: loop - base, base };
}

/** Wall time of one round of 8 tools that each wait 100 ms, over 100 ms. */
async function parallel(): Promise<number> {
  const wait = tool(
    "wait",
    "Waits 100 ms.",
    z.object({}),
    () => new Promise((r) => setTimeout(() => r("ok"), 100)),
    {
      readOnly: true,
    },
  );
  const a = agent(
    scripted([calls(Array.from({ length: 8 }, () => ["wait", "{}"] as [string, string])), says("end")]),
    "",
    [wait],
  );
  const t0 = performance.now();
  await run(a, "go");
  return (performance.now() - t0) / 100;
}

/** Median ms to the first text piece through `run`, minus the raw SDK's ms to the first chunk. */
async function firstToken(samples: number): Promise<{ added: number; raw: number }> {
  const server = await openaiServer();
  try {
    const client = new OpenAI({ baseURL: server.baseURL, apiKey: "none", maxRetries: 0 });
    const model = endpoint({ baseURL: server.baseURL, model: "bench", window: 0 });
    const raws: number[] = [];
    const runs: number[] = [];
    const viaSdk = async (): Promise<void> => {
      const t0 = performance.now();
      let first = -1;
      const stream = await client.chat.completions.create({
        model: "bench",
        messages: [{ role: "user", content: "hi" }],
        stream: true,
      });
      for await (const chunk of stream) {
        if (chunk.choices[0]?.delta?.content && first < 0) first = performance.now() - t0;
      }
      raws.push(first);
    };
    const viaRun = async (): Promise<void> => {
      const t0 = performance.now();
      let first = -1;
      await run(agent(model), "hi", {
        each: (p) => {
          if (p.kind === "text" && first < 0) first = performance.now() - t0;
        },
      });
      runs.push(first);
    };
    for (let i = 0; i < samples; i++) {
      server.script(answer("Hello there, this is the answer."), answer("Hello there, this is the answer."));
      // Alternate which goes first, so neither always meets a warm or a cold connection.
      if (i % 2) await viaSdk().then(viaRun);
      else await viaRun().then(viaSdk);
    }
    const raw = median(raws);
    return { added: median(runs) - raw, raw };
  } finally {
    await server.close();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function main(): Promise<void> {
  await overhead(100); // warm-up
  const { loop, base } = await overhead(500);
  await parallel(); // warm-up
  const ratio = median([await parallel(), await parallel(), await parallel()]);
  console.log(
    `BENCH agent-loop overhead_us_per_round=${loop.toFixed(1)} baseline_us_per_round=${base.toFixed(1)} parallel_ratio=${ratio.toFixed(3)}`,
  );
  await firstToken(5); // warm-up
  const { added, raw } = await firstToken(31);
  console.log(`BENCH first-token added_ms=${added.toFixed(2)} raw_sdk_ms=${raw.toFixed(2)}`);
}

void main();

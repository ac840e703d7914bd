// Tool calls of a model without native calls, two ways in the same run, on the demo model (random
// weights, the real node-llama-cpp runtime): each request asks to read or write a file, with the
// workspace's tools offered as Tandem offers them to such a model — held to the tools' schemas by
// `response_format` (the endpoint honours a JSON Schema), and as today's text calls (the tools
// described in the instructions, calls read from the text):
//   BENCH tool-calls requests=50 valid_constrained=… valid_text=… answers_constrained=… answers_text=…
// valid: the turn is a call that parses and names an offered tool with arguments of its schema.
// answers: turns that gave a plain answer instead (a malformed reply counts in neither).
// Goal: valid_constrained = 1.00.
import { join } from "node:path";
import { endpoint, type FunctionTool, type Request } from "../src/agent";
import { fits } from "../src/agent/constrained-check";
import { factsKey, memoryFacts, type Learned } from "../src/agent/facts";
import type { Editor } from "../src/chat/workspace/editor";
import { workspaceTools } from "../src/chat/workspace/tools";
import { makeGguf } from "../scripts/demo-model/make-gguf.mjs";
import { ensureRuntime } from "../scripts/demo-model/runtime.mjs";
import { DEMO_MODEL, serveDemo } from "../scripts/demo-model/serve.mjs";
import { folder } from "../test/unit/workspace/fixtures";

const REQUESTS = 50;
const RUNTIME_DIR = join(__dirname, "../.vscode-test/demo");

/** An editor that is never asked: the benchmark runs no tool, it only reads the calls. */
const editor: Editor = {
  open: () => Promise.reject(new Error("not in the benchmark")),
  propose: () => Promise.reject(new Error("not in the benchmark")),
  create: () => Promise.reject(new Error("not in the benchmark")),
  run: () => Promise.reject(new Error("not in the benchmark")),
};

/** The person's message of request `i`: half ask to read a file, half to write one. */
function prompt(i: number): string {
  const file = ["README.md", "src/main.ts", "notes.md", "docs/guide.md", "package.json"][i % 5];
  return i % 2 ? `Please write ${file.replace(/\.\w+$/, `-${i}.md`)} with a summary` : `Read ${file}`;
}

async function main(): Promise<void> {
  ensureRuntime(RUNTIME_DIR, { quiet: true });
  const weights = folder("tandem-bench-weights-");
  const workspace = folder("tandem-bench-ws-");
  const demo = await serveDemo({
    dir: RUNTIME_DIR,
    modelPath: makeGguf(join(weights.path, `${DEMO_MODEL}.gguf`)),
  });
  try {
    const tools: FunctionTool[] = workspaceTools({ root: workspace.path, editor, trusted: true }).map(
      (t) => ({
        type: "function",
        function: { name: t.name, description: t.description, parameters: t.parameters },
      }),
    );
    const count = async (learned: Learned): Promise<{ valid: number; answers: number }> => {
      const facts = memoryFacts();
      const key = factsKey(demo.url, DEMO_MODEL);
      facts.set(key, { window: 2048, ...learned });
      const model = endpoint({ baseURL: demo.url, model: DEMO_MODEL, window: 2048, facts, key });
      let valid = 0;
      let answers = 0;
      for (let i = 0; i < REQUESTS; i++) {
        const request: Request = {
          instructions: "You are Tandem, a helpful assistant in the person's code editor.",
          messages: [{ role: "user", text: prompt(i) }],
          tools,
          answer: false,
        };
        try {
          const turn = await model.turn(request, () => {});
          if (turn.calls.length && turn.calls.every((call) => fits(call, tools))) valid++;
          else if (!turn.calls.length && turn.text.trim()) answers++;
        } catch {
          // A reply Tandem cannot read: neither a valid call nor an answer.
        }
      }
      return { valid, answers };
    };
    const constrained = await count({ textTools: true, jsonSchema: true });
    const text = await count({ textTools: true, jsonSchema: false });
    console.log(
      `BENCH tool-calls requests=${REQUESTS} valid_constrained=${(constrained.valid / REQUESTS).toFixed(2)} ` +
        `valid_text=${(text.valid / REQUESTS).toFixed(2)} answers_constrained=${constrained.answers} answers_text=${text.answers}`,
    );
  } finally {
    await demo.stop();
    weights.remove();
    workspace.remove();
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

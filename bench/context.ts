// A 60-round tool-using task on a model with an 8,192-token window, through the real `openai` SDK
// and the run loop, against a fixture server that refuses a longer prompt as OpenAI and vLLM do.
//   BENCH context rounds=60 window=8192 overflowed=N max_prompt_tokens=… prompt_tokens_vs_full=… finished=1
// prompt_tokens_vs_full: the prompt tokens sent over those that sending the whole history each round
// would take, both counted by the server. Goals: overflowed=0, max_prompt_tokens ≤ 8192,
// prompt_tokens_vs_full ≤ 0.5, finished=1.
import { agent, endpoint, run } from "../src/agent";
import { finalAnswer, fullPromptTokens, readLog, scriptLongTask } from "../test/fixtures/long-task";
import { openaiServer, promptTokens } from "../test/fixtures/openai-server";

const ROUNDS = 60;
const WINDOW = 8192;

async function main(): Promise<void> {
  const server = await openaiServer();
  try {
    server.window = WINDOW;
    server.models = [{ id: "small", object: "model", context_length: WINDOW }];
    scriptLongTask(server, ROUNDS);
    const a = agent(
      endpoint({ baseURL: server.baseURL, model: "small", retry: { attempts: 0 } }),
      "You read logs.",
      [readLog],
    );
    a.rounds = ROUNDS + 1;
    let answer = "";
    try {
      answer = await run(
        a,
        `Read all ${ROUNDS} parts of the server log with read_log, one a round, then say if any request failed.`,
      );
    } catch (error) {
      console.error(`the run failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    // The rounds of the task: the requests that offered tools (a summary request offers none).
    const rounds = server.requests.filter((r) => Array.isArray(r.body.tools) && r.body.tools.length);
    const sent = server.requests.map((r) => promptTokens(r.body));
    const first = rounds[0]?.body ?? { messages: [] };
    let full = 0;
    for (let i = 0; i < rounds.length; i++) full += fullPromptTokens(first, i);
    const total = sent.reduce((sum, n) => sum + n, 0);
    const finished = answer === finalAnswer(ROUNDS) ? 1 : 0;
    console.log(
      `BENCH context rounds=${rounds.length - 1} window=${WINDOW} overflowed=${server.overflowed} max_prompt_tokens=${Math.max(...sent)} prompt_tokens_vs_full=${(total / full).toFixed(3)} finished=${finished}`,
    );
  } finally {
    await server.close();
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);

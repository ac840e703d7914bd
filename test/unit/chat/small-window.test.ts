import assert from "node:assert/strict";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { endpoint } from "../../../src/agent/endpoint";
import { asked, memory } from "../../../src/chat/make";
import {
  answer,
  calling,
  openaiServer,
  promptTokens,
  type FixtureServer,
} from "../../fixtures/openai-server";
import { MEMORIES, SKILLS, panelWorkspace } from "../../fixtures/panel-tools";
import { answerOf, bench, until, type Bench } from "./runner-fixture";

const WINDOW = 4096;
const FILES = Array.from({ length: 6 }, (_, i) => `src/part${i + 1}.ts`);
const ANSWER = "The six parts each export one step of the pipeline, run in order.";

/** About 1.5 KB of a source file: numbered lines a model would read. */
function source(n: number): string {
  return Array.from(
    { length: 24 },
    (_, line) => `export const step${n}_${line} = () => "part ${n}, line ${line + 1} of the pipeline";`,
  )
    .join("\n")
    .slice(0, 1536);
}

describe("chat: a tool task on a 4,096-token model", () => {
  let b: Bench | undefined;
  let server: FixtureServer | undefined;
  let root = "";
  afterEach(async () => {
    await b?.end();
    b = undefined;
    await server?.close();
    server = undefined;
    if (root) await rm(root, { recursive: true, force: true });
    root = "";
  });

  it("reads six 1.5 KB files one a round and answers, no request over the window", async function () {
    this.timeout(60_000);
    server = await openaiServer();
    // The model lists its window, and the server refuses any prompt over it, as vLLM does.
    server.models = [{ id: "small", object: "model", context_length: WINDOW }];
    server.window = WINDOW;
    // Six rounds that each read one file, then the answer; more replies than needed for a title.
    server.script(
      ...FILES.map((path, i) => calling([[`c${i + 1}`, "read_file", JSON.stringify({ path })]])),
      answer(ANSWER),
      answer("Six parts"),
      answer("Six parts"),
    );
    const workspace = panelWorkspace();
    root = workspace.root;
    await mkdir(join(root, "src"));
    for (const [i, path] of FILES.entries()) await writeFile(join(root, path), source(i + 1));
    const model = endpoint({
      baseURL: server.baseURL,
      model: "small",
      apiKey: "none",
      retry: { attempts: 0 },
    });
    // The panel's runner with its whole tool set (workspace, VS Code's, a plugin's), skills and memories.
    b = await bench({
      model: () => model,
      tools: () => workspace.tools,
      roots: () => [root],
      root: () => root,
      skills: () => SKILLS,
    });
    const agent = b.store.rows("assistants")[0].id;
    for (const [i, text] of MEMORIES.entries())
      b.store.put("memories", memory(agent, text, { from: "person", chat: "", title: "" }, 1000 + i));
    const chat = b.chat();
    const user = asked(`Read ${FILES.join(", ")} one by one and tell me what they do.`, chat);
    b.store.put("items", user);
    await until(() => b!.store.get("items", user.id)?.done === true, "the six-read answer", 50_000);

    const items = answerOf(b.store, chat, user.id);
    const shown = JSON.stringify(items.map((i) => [i.kind, i.name, i.state, i.text.slice(0, 160)]));
    assert.deepEqual(
      items.filter((i) => i.kind === "error").map((i) => i.text),
      [],
      "no error in the conversation",
    );
    assert.equal(items.findLast((i) => i.kind === "text")?.text, ANSWER, shown);
    const reads = items.filter((i) => i.kind === "call" && i.name === "read_file");
    assert.equal(reads.length, 6, shown);
    for (const [i, call] of reads.entries()) {
      assert.equal(call.state, "done", `read ${i + 1}: ${call.state} ${call.output.slice(0, 200)}`);
      assert.ok(call.output.includes(`part ${i + 1}, line 1 of the pipeline`), call.output.slice(0, 200));
    }
    // What the server received, by its own count: nothing refused, every request within the window.
    const sizes = server.requests.map((r) => promptTokens(r.body));
    assert.equal(server.overflowed, 0, `refused as over the window: ${sizes.join(", ")}`);
    assert.ok(sizes.length >= 7, `${sizes.length} requests`);
    assert.ok(
      sizes.every((n) => n <= WINDOW),
      `request sizes: ${sizes.join(", ")}`,
    );
  });
});

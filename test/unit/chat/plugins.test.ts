import assert from "node:assert/strict";
import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Tool } from "../../../src/agent/types";
import { McpPlugin, openPlugins, type StdioSource } from "../../../src/chat/plugins/plugins";
import { alive, everything, named, signal } from "./plugin-fixture";

const root = path.join(__dirname, "../../..");
const filesystem = path.join(root, "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");

/** A stdio source that starts the everything server, recording each approval asked. */
function everythingSource(asked: string[] = [], answer = true): StdioSource {
  return {
    name: "every",
    command: process.execPath,
    args: [everything, "stdio"],
    trusted: true,
    approveStart: (line) => {
      asked.push(line);
      return answer;
    },
  };
}

describe("stdio plugins (the everything server)", function () {
  this.timeout(20_000);
  const asked: string[] = [];
  let plugin: McpPlugin;
  let tools: Tool[];

  before(async () => {
    plugin = new McpPlugin(everythingSource(asked), { callMs: 800 });
    tools = await plugin.tools();
  });
  after(async () => {
    await plugin.close();
  });

  it("asks the person once, with the command line, before starting the program", () => {
    assert.equal(asked.length, 1);
    assert.equal(asked[0], `${process.execPath} ${everything} stdio`);
  });

  it("lists its tools with the plugin's prefix, their schema and whether they only read", () => {
    assert.match(plugin.status, /^\d+ tools$/);
    assert.equal(plugin.status, `${tools.length} tools`);
    const echo = named(tools, "every_echo");
    assert.equal(echo.readOnly, true);
    assert.equal(echo.description, "Echoes back the input string");
    assert.deepEqual(echo.parameters.required, ["message"]);
    assert.equal(named(tools, "every_gzip-file-as-resource").readOnly, false);
    for (const tool of tools) assert.match(tool.name, /^every_[a-zA-Z0-9_-]{1,58}$/);
  });

  it("calls a tool and answers its text", async () => {
    assert.equal(await named(tools, "every_echo").run('{"message":"hello"}', signal()), "Echo: hello");
  });

  it("summarises an image between the texts", async () => {
    const text = await named(tools, "every_get-tiny-image").run("{}", signal());
    assert.match(
      text,
      /^Here's the image you requested:\n\[image: image\/png, \d+ KB\]\nThe image above is the MCP logo\.$/,
    );
  });

  it("fails a call with arguments that are not a JSON object, or that the tool refuses", async () => {
    const echo = named(tools, "every_echo");
    await assert.rejects(echo.run("[1,2]", signal()), /must be a JSON object, not a list: \[1,2\]/);
    await assert.rejects(echo.run("{oops", signal()), /not valid JSON \(.+\): \{oops/);
    await assert.rejects(echo.run('{"message": 42}', signal()), /message/);
  });

  it("fails a call that does not answer in time, and the next call works", async () => {
    const slow = named(tools, "every_trigger-long-running-operation");
    const started = Date.now();
    await assert.rejects(slow.run('{"duration": 5, "steps": 5}', signal()), {
      message: "plugin every: trigger-long-running-operation did not answer within 0.8 s",
    });
    assert.ok(Date.now() - started < 3000);
    assert.equal(await named(tools, "every_echo").run('{"message":"after"}', signal()), "Echo: after");
  });

  it("fails the call when its program dies, and starts it again on the next call", async () => {
    const pid = plugin.pid;
    assert.ok(pid && alive(pid));
    const slow = named(tools, "every_trigger-long-running-operation").run(
      '{"duration": 0.7, "steps": 1}',
      signal(),
    );
    setTimeout(() => process.kill(pid, "SIGKILL"), 200);
    await assert.rejects(
      slow,
      /^Error: plugin every: its program ended during trigger-long-running-operation.*restarts on the next call/,
    );
    assert.equal(await named(tools, "every_echo").run('{"message":"back"}', signal()), "Echo: back");
    assert.notEqual(plugin.pid, pid);
    assert.equal(asked.length, 1, "the person is not asked again for the same program");
  });

  it("ends its program when closed, and refuses calls after", async () => {
    const pid = plugin.pid;
    assert.ok(pid && alive(pid));
    await plugin.close();
    assert.equal(alive(pid), false);
    await assert.rejects(plugin.call("echo", '{"message":"x"}'), /the plugin every is closed/);
  });
});

describe("stdio plugins that may not or cannot start", function () {
  this.timeout(10_000);

  it("are refused in an untrusted workspace, without asking the person", async () => {
    const asked: string[] = [];
    const plugin = new McpPlugin({ ...everythingSource(asked), trusted: false });
    assert.deepEqual(await plugin.tools(), []);
    assert.match(
      plugin.status,
      /^refused: a plugin that runs a program \(.*stdio\) needs a trusted workspace$/,
    );
    assert.deepEqual(asked, []);
    assert.equal(plugin.pid, null);
  });

  it("are refused when the person does not approve, and each call says so", async () => {
    const asked: string[] = [];
    const plugin = new McpPlugin(everythingSource(asked, false));
    assert.deepEqual(await plugin.tools(), []);
    assert.match(plugin.status, /^refused: starting .* was not approved$/);
    await assert.rejects(plugin.call("echo", "{}"), /plugin every: refused: starting .* was not approved/);
    assert.equal(plugin.pid, null);
  });

  it("say when the program does not exist", async () => {
    const plugin = new McpPlugin({ ...everythingSource(), command: "tandem-no-such-program-here" });
    await plugin.tools();
    assert.equal(
      plugin.status,
      `could not connect to tandem-no-such-program-here ${everything} stdio: the program was not found`,
    );
  });

  it("say what a program that ends at once wrote", async () => {
    const plugin = new McpPlugin({
      ...everythingSource(),
      args: ["-e", "process.stderr.write('missing API_TOKEN\\n'); process.exit(3)"],
    });
    await plugin.tools();
    assert.match(
      plugin.status,
      /^could not connect to .*: the connection closed — it said: missing API_TOKEN$/,
    );
  });

  it("say when a program does not speak MCP in time", async () => {
    const plugin = new McpPlugin(
      { ...everythingSource(), args: ["-e", "setTimeout(() => {}, 60000)"] },
      { connectMs: 400 },
    );
    await plugin.tools();
    assert.match(plugin.status, /: it did not answer in time$/);
    assert.equal(plugin.pid, null);
  });
});

describe("the filesystem server over stdio", function () {
  this.timeout(20_000);
  let folder: string;
  let plugin: McpPlugin;
  let tools: Tool[];

  before(async () => {
    folder = await realpath(await mkdtemp(path.join(tmpdir(), "tandem-fs-")));
    await writeFile(path.join(folder, "notes.txt"), "line one\nline two\n");
    plugin = new McpPlugin({
      name: "files",
      command: process.execPath,
      args: [filesystem, folder],
      trusted: true,
      approveStart: () => true,
    });
    tools = await plugin.tools();
  });
  after(async () => {
    await plugin.close();
    await rm(folder, { recursive: true, force: true });
  });

  it("offers reading tools as read-only and writing tools as not", () => {
    assert.equal(named(tools, "files_read_text_file").readOnly, true);
    assert.equal(named(tools, "files_list_directory").readOnly, true);
    assert.equal(named(tools, "files_write_file").readOnly, false);
    assert.equal(named(tools, "files_move_file").readOnly, false);
  });

  it("reads and writes files of its folder", async () => {
    const text = await named(tools, "files_read_text_file").run(
      JSON.stringify({ path: path.join(folder, "notes.txt") }),
      signal(),
    );
    assert.equal(text, "line one\nline two\n");
    await named(tools, "files_write_file").run(
      JSON.stringify({ path: path.join(folder, "new.md"), content: "# new" }),
      signal(),
    );
    const listing = await named(tools, "files_list_directory").run(
      JSON.stringify({ path: folder }),
      signal(),
    );
    assert.match(listing, /\[FILE\] new\.md/);
  });

  it("fails a call outside its folder with the server's reason", async () => {
    await assert.rejects(
      named(tools, "files_read_text_file").run(JSON.stringify({ path: "/etc/hostname" }), signal()),
      /Access denied|outside allowed/i,
    );
  });
});

describe("openPlugins", function () {
  this.timeout(20_000);

  it("gathers the tools of the plugins that open, named apart, with a status for each", async () => {
    const set = await openPlugins([
      everythingSource(),
      { ...everythingSource(), name: "broken", command: "tandem-no-such-program-here" },
      { name: "web", address: "http://127.0.0.1:9/mcp" },
      everythingSource(),
    ]);
    try {
      const [every, broken, web, twin] = set.plugins;
      assert.match(every.status, /^\d+ tools$/);
      assert.equal(twin.status, every.status);
      assert.match(broken.status, /program was not found/);
      assert.match(web.status, /^refused: private address 127\.0\.0\.1 \(loopback\)/);
      const names = set.tools.map((t) => t.name);
      assert.equal(names.length, 2 * Number(every.status.split(" ")[0]));
      assert.equal(new Set(names).size, names.length);
      assert.ok(names.includes("every_echo") && names.includes("every_echo_2"));
      assert.equal(await named(set.tools, "every_echo").run('{"message":"set"}', signal()), "Echo: set");
      assert.equal(await named(set.tools, "every_echo_2").run('{"message":"twin"}', signal()), "Echo: twin");
    } finally {
      await set.close();
    }
  });
});

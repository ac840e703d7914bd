import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { calls, says, scripted } from "../../../src/agent/scripted";
import { asked, plugin } from "../../../src/chat/make";
import { AgentPlugins } from "../../../src/chat/plugins/set";
import { commandLine } from "../../../src/chat/plugins/source";
import { secretKey, type Item, type Plugin, type Secrets } from "../../../src/chat/row-schemas";
import { Store } from "../../../src/chat/store/store";
import { alive, everything, named, plainServer, signal } from "./plugin-fixture";
import { answered, bench, hostOf, type Bench } from "./runner-fixture";

/** The command line that starts the everything server over stdio, as a person types it in a row. */
const everyLine = commandLine([process.execPath, everything, "stdio"]);

/** The editor's secret storage, in memory; `failing` makes every read fail. */
class MemorySecrets implements Secrets {
  readonly values = new Map<string, string>();
  failing = false;
  async get(key: string): Promise<string | undefined> {
    if (this.failing) throw new Error("the keyring is locked");
    return this.values.get(key);
  }
  async store(key: string, value: string): Promise<void> {
    this.values.set(key, value);
  }
  async delete(key: string): Promise<void> {
    this.values.delete(key);
  }
}

/** Resolves once the process PID has ended; fails after MS. */
async function gone(pid: number, ms = 6000): Promise<void> {
  const end = Date.now() + ms;
  while (alive(pid)) {
    if (Date.now() > end) throw new Error(`the process ${pid} still runs`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A plain HTTP server that records each request's headers and refuses it (401), as a server refusing a key. */
const refusing = () => plainServer(401, "application/json", '{"error":"bad key"}');

describe("an assistant's plugins (AgentPlugins)", function () {
  this.timeout(30_000);
  let folder: string;
  let store: Store;
  let secrets: MemorySecrets;
  let set: AgentPlugins;
  let startsAsked: string[];
  let editor: { trusted: boolean; allowPrivate: boolean; hints: boolean; answer: boolean };

  /** A plugin row of the agent AGENT at ADDRESS, put in the store. */
  function row(address: string, fields: Partial<Plugin> = {}, agent = "a1"): Plugin {
    const made = { ...plugin(agent, address), ...fields };
    store.put("plugins", made);
    return made;
  }

  const status = (id: string) => store.get("plugins", id)?.status;

  beforeEach(async () => {
    folder = await mkdtemp(path.join(tmpdir(), "tandem-plugin-set-"));
    store = await Store.open(folder);
    secrets = new MemorySecrets();
    startsAsked = [];
    editor = { trusted: true, allowPrivate: false, hints: false, answer: true };
    set = new AgentPlugins(store, secrets, {
      trusted: () => editor.trusted,
      allowPrivate: () => editor.allowPrivate,
      trustReadOnlyHints: () => editor.hints,
      approveStart: (line) => {
        startsAsked.push(line);
        return editor.answer;
      },
      limits: { connectMs: 8000 },
    });
  });
  afterEach(async () => {
    await set.close();
    await store.close();
    await rm(folder, { recursive: true, force: true });
  });

  it("turns an enabled row into its tools, writes its status on the row, and keeps it open between runs", async () => {
    const every = row(everyLine, { name: "every" });
    const other = row("stdio:node 'unclosed", { name: "theirs" }, "a2");
    const off = row(everyLine, { name: "off", enabled: false });
    const tools = await set.tools({ id: "a1" });
    assert.equal(status(every.id), `${tools.length} tools`);
    assert.ok(tools.length > 5);
    assert.ok(tools.every((t) => t.name.startsWith("every_")));
    assert.equal(await named(tools, "every_echo").run('{"message":"hi"}', signal()), "Echo: hi");
    assert.deepEqual(startsAsked, [everyLine], "the person is asked once, with the command line");
    assert.equal(status(other.id), "", "another assistant's plugin is not opened");
    assert.equal(status(off.id), "", "a plugin turned off is not opened");
    assert.equal(set.plugin(off.id), undefined);

    const pid = set.plugin(every.id)?.pid;
    assert.ok(pid && alive(pid));
    const again = await set.tools({ id: "a1" });
    assert.equal(again.length, tools.length);
    assert.equal(set.plugin(every.id)?.pid, pid, "the next run uses the same program");
    assert.equal(startsAsked.length, 1);
  });

  it("shows the person a program's command line with hidden characters written out", async () => {
    editor.answer = false;
    const hidden = row("stdio:node ev\u202Eil.js", { name: "hid" });
    assert.deepEqual(await set.tools({ id: "a1" }), []);
    assert.deepEqual(startsAsked, ["node 'ev⟦U+202E⟧il.js'"]);
    assert.ok(!set.plugin(hidden.id)?.pid, "nothing started");
  });

  it("marks every plugin tool as needing the person, unless the servers' hints are trusted", async () => {
    row(everyLine, { name: "every" });
    const tools = await set.tools({ id: "a1" });
    assert.deepEqual(
      tools.filter((t) => t.readOnly).map((t) => t.name),
      [],
    );
    editor.hints = true;
    const trusting = await set.tools({ id: "a1" });
    assert.equal(named(trusting, "every_echo").readOnly, true, "the server calls echo read-only");
    assert.equal(named(trusting, "every_gzip-file-as-resource").readOnly, false);
  });

  it("has the runner ask the person before a plugin's tool runs", async () => {
    const approvals: Item[] = [];
    const model = scripted([calls([["every_echo", '{"message":"from the run"}']]), says("Done."), says("T")]);
    const holder: { set?: AgentPlugins } = {};
    const b: Bench = await bench(
      hostOf(
        { default: model },
        {
          tools: (assistant) => holder.set?.tools(assistant) ?? [],
          approve: async (call) => {
            approvals.push(call);
            return true;
          },
        },
      ),
    );
    holder.set = new AgentPlugins(b.store, secrets, {
      trusted: () => true,
      allowPrivate: () => false,
      approveStart: () => true,
    });
    try {
      const agent = b.store.rows("assistants")[0].id;
      b.store.put("plugins", { ...plugin(agent, everyLine), name: "every" });
      const chat = b.chat();
      const user = asked("Echo something", chat);
      await b.store.putDurable("items", user);
      await answered(b.store, user.id);
      const call = b.store.items(chat).find((i) => i.kind === "call");
      assert.deepEqual(
        approvals.map((i) => i.name),
        ["every_echo"],
      );
      assert.equal(call?.state, "done");
      assert.equal(call?.output, "Echo: from the run");
      await b.runner.idle();
    } finally {
      await holder.set.close();
      await b.end();
    }
  });

  it("closes the plugin when its row is turned off, and starts it again when turned on", async () => {
    const every = row(everyLine, { name: "every" });
    await set.tools({ id: "a1" });
    const pid = set.plugin(every.id)?.pid;
    assert.ok(pid && alive(pid));
    store.put("plugins", { ...store.get("plugins", every.id)!, enabled: false });
    await gone(pid);
    assert.equal(set.plugin(every.id), undefined);
    assert.deepEqual(await set.tools({ id: "a1" }), []);

    store.put("plugins", { ...store.get("plugins", every.id)!, enabled: true });
    const tools = await set.tools({ id: "a1" });
    assert.ok(tools.length > 0);
    const next = set.plugin(every.id)?.pid;
    assert.ok(next && next !== pid && alive(next));
    assert.equal(startsAsked.length, 2, "a program started anew is asked about anew");
  });

  it("closes the plugin when its row is deleted", async () => {
    const every = row(everyLine, { name: "every" });
    await set.tools({ id: "a1" });
    const pid = set.plugin(every.id)?.pid;
    assert.ok(pid && alive(pid));
    store.delete("plugins", every.id);
    await gone(pid);
    assert.deepEqual(await set.tools({ id: "a1" }), []);
  });

  it("starts a plugin whose program died again at the next run, without asking again", async () => {
    const every = row(everyLine, { name: "every" });
    await set.tools({ id: "a1" });
    const pid = set.plugin(every.id)?.pid;
    assert.ok(pid);
    process.kill(pid, "SIGKILL");
    await gone(pid);
    const tools = await set.tools({ id: "a1" });
    assert.equal(await named(tools, "every_echo").run('{"message":"back"}', signal()), "Echo: back");
    assert.equal(status(every.id), `${tools.length} tools`);
    assert.notEqual(set.plugin(every.id)?.pid, pid);
    assert.equal(startsAsked.length, 1);
  });

  it("refuses to start a program in an untrusted workspace, says why on the row, and starts it once trusted", async () => {
    const every = row(everyLine, { name: "every" });
    editor.trusted = false;
    assert.deepEqual(await set.tools({ id: "a1" }), []);
    assert.equal(
      status(every.id),
      `refused: a plugin that runs a program (${everyLine}) needs a trusted workspace`,
    );
    assert.deepEqual(startsAsked, []);
    assert.equal(set.plugin(every.id)?.pid, null);

    editor.trusted = true;
    const tools = await set.tools({ id: "a1" });
    assert.ok(tools.length > 0);
    assert.equal(status(every.id), `${tools.length} tools`);
  });

  it("does not ask again after the person said no, until the row is turned off and on", async () => {
    const every = row(everyLine, { name: "every" });
    editor.answer = false;
    assert.deepEqual(await set.tools({ id: "a1" }), []);
    assert.equal(status(every.id), `refused: starting ${everyLine} was not approved`);
    assert.deepEqual(await set.tools({ id: "a1" }), []);
    assert.equal(startsAsked.length, 1, "one no is enough");

    store.put("plugins", { ...store.get("plugins", every.id)!, enabled: false });
    store.put("plugins", { ...store.get("plugins", every.id)!, enabled: true });
    editor.answer = true;
    assert.ok((await set.tools({ id: "a1" })).length > 0);
    assert.equal(startsAsked.length, 2);
  });

  it("reaches a private address only when allowed", async () => {
    const server = await refusing();
    try {
      const web = row(server.url);
      assert.equal(web.name, "127_0_0_1");
      assert.deepEqual(await set.tools({ id: "a1" }), []);
      assert.equal(
        status(web.id),
        "refused: private address 127.0.0.1 (loopback); turn on the setting tandem.plugins.allowPrivateAddresses to allow private addresses",
      );
      assert.equal(server.requests.length, 0, "nothing was sent");

      editor.allowPrivate = true;
      assert.deepEqual(await set.tools({ id: "a1" }), []);
      assert.ok(server.requests.length > 0, "the server was reached");
      assert.equal(
        status(web.id),
        `could not connect to ${server.url}: the server refused the key (HTTP 401)`,
      );
    } finally {
      await server.close();
    }
  });

  it("sends the key kept in the secrets, never in the row, and reconnects with a new key", async () => {
    const server = await refusing();
    editor.allowPrivate = true;
    try {
      const web = row(server.url, { secret: true });
      await secrets.store(secretKey(web.id), "first-key");
      await set.tools({ id: "a1" });
      assert.equal(server.requests.at(-1)?.authorization, "Bearer first-key");

      await secrets.store(secretKey(web.id), "second-key");
      const before = server.requests.length;
      await set.tools({ id: "a1" });
      assert.ok(server.requests.length > before, "a new key connects again");
      assert.equal(server.requests.at(-1)?.authorization, "Bearer second-key");

      store.put("plugins", { ...store.get("plugins", web.id)!, header: "X-Api-Key" });
      await set.tools({ id: "a1" });
      assert.equal(server.requests.at(-1)?.["x-api-key"], "second-key");
      assert.equal(
        status(web.id),
        `could not connect to ${server.url}: the server refused the key (HTTP 401)`,
      );

      await store.flush();
      const journal = await readFile(path.join(folder, "journal.jsonl"), "utf8");
      assert.ok(journal.includes(web.id));
      assert.ok(!journal.includes("first-key") && !journal.includes("second-key"), "no key is stored");
    } finally {
      await server.close();
    }
  });

  it("says on the row when its key or its address cannot be read", async () => {
    const bad = row("stdio:node 'unclosed", { name: "bad" });
    assert.deepEqual(await set.tools({ id: "a1" }), []);
    assert.equal(status(bad.id), "could not read its address: the command line has an unclosed ' quote");
    secrets.failing = true;
    await set.tools({ id: "a1" });
    assert.equal(status(bad.id), "could not read its key: the keyring is locked");
    assert.deepEqual(startsAsked, []);
  });

  it("names two plugins' tools apart, and close() ends every program", async () => {
    const first = row(everyLine, { name: "every" });
    const second = row(everyLine, { name: "every" });
    const tools = await set.tools({ id: "a1" });
    const names = tools.map((t) => t.name);
    assert.equal(new Set(names).size, names.length);
    assert.equal(await named(tools, "every_echo_2").run('{"message":"twin"}', signal()), "Echo: twin");
    const pids = [set.plugin(first.id)?.pid, set.plugin(second.id)?.pid];
    assert.ok(pids.every((pid) => pid && alive(pid)));
    await set.close();
    for (const pid of pids) assert.equal(alive(pid!), false, `the program ${pid} has ended`);
    assert.deepEqual(await set.tools({ id: "a1" }), []);
  });
});

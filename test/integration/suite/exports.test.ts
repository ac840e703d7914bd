import assert from "node:assert/strict";
import * as vscode from "vscode";
import { TABLE_NAMES } from "../../../src/chat/row-schemas";

type Fn = (...args: unknown[]) => unknown;

/** What Tandem hands other extensions: `execute` and reading, nothing that writes the store or a secret. */
describe("Tandem's exports to other extensions", () => {
  it("give execute and read-only access: no key setter, no writable store", async () => {
    const ext = vscode.extensions.getExtension<Record<string, unknown>>("tandem-dev.tandem")!;
    const api = await ext.activate();
    assert.deepEqual(Object.keys(api).sort(), [
      "activationMs",
      "callMs",
      "conversations",
      "conversationsOpenMs",
      "execute",
      "loadMs",
      "panelResolved",
      "participant",
      "pending",
      "running",
      "storeFolder",
      "tools",
      "version",
      "vscodeApiMs",
    ]);
    // Which conversations are answering: a list of ids, to read.
    assert.ok(Array.isArray(await (api.running as Fn)()));
    const opened = (await (api.conversations as Fn)()) as Record<string, unknown>;
    assert.deepEqual(Object.keys(opened), ["store"]);
    const store = opened.store as Record<string, Fn>;
    assert.deepEqual(Object.keys(store).sort(), [
      "conversations",
      "count",
      "flush",
      "follow",
      "get",
      "items",
      "loaded",
      "rows",
      "search",
    ]);
    for (const writer of ["put", "putDurable", "delete", "deleteConversation", "compact", "close"])
      assert.equal(store[writer], undefined, `${writer} is handed out`);

    // Every function, called with what a writer would pass, leaves every row as it was.
    // The items of every conversation (the store holds only the open ones in memory).
    const rows = () =>
      JSON.stringify([
        ...TABLE_NAMES.filter((t) => t !== "items").map((t) => store.rows(t)),
        ...(store.conversations() as Array<{ id: string }>).map((c) => store.items(c.id)),
      ]);
    const before = rows();
    const chat = (store.conversations() as Array<{ id: string }>)[0]?.id ?? "none";
    const row = { id: "x", chat, kind: "user", text: "written by another extension" };
    store.get("items", "x");
    store.rows("items");
    store.count("items");
    store.items(chat);
    store.loaded();
    (api.storeFolder as Fn)();
    (api.conversationsOpenMs as Fn)();
    await store.search("written");
    (store.follow({ table: "items" }, () => undefined) as () => void)();
    await store.flush("items", row);
    await (api.tools as Fn)(row);
    (api.panelResolved as Fn)(row);
    const outcome = (await (api.execute as Fn)({ model: "gpt-4", messages: "not a list" })) as {
      status: number;
    };
    assert.equal(outcome.status, 422);
    assert.equal(rows(), before);
    assert.equal(typeof (api as { setApiKey?: unknown }).setApiKey, "undefined");
  });
});

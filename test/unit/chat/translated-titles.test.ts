import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { says, scripted } from "../../../src/agent/scripted";
import { EDITED, fork, REGENERATED } from "../../../src/chat/panel/fork";
import { asked, conversation } from "../../../src/chat/make";
import { forkBefore, RESTORED } from "../../../src/chat/panel/go-back";
import { setBundle } from "../../../src/protocol/l10n";
import { bench, hostOf, type Bench } from "./runner-fixture";

const root = join(__dirname, "../../..");
const bundle = (lang: string) =>
  JSON.parse(readFileSync(join(root, `l10n/bundle.l10n.${lang}.json`), "utf8")) as Record<string, string>;

describe("a fork's title says (edited), (regenerated) or (restored) in the person's language", () => {
  let b: Bench | undefined;
  afterEach(async () => {
    setBundle(undefined);
    await b?.end();
    b = undefined;
  });

  /** A conversation named `title` holding one answered message. */
  async function oneMessage(title: string, answers: number) {
    const m = scripted(Array.from({ length: answers }, (_, i) => says(`A${i + 1}`)));
    b = await bench(hostOf({ default: m, m }));
    const row = conversation(b.store.rows("assistants")[0]!.id, title);
    b.store.put("conversations", row);
    const message = await b.send(asked("one", row.id));
    await b.runner.idle();
    return message;
  }

  it("is made in the language set when the fork is made, and stays as made", async () => {
    const message = await oneMessage("Title", 3);
    setBundle(bundle("de"));
    const restored = forkBefore(b!.store, message);
    const edited = await fork(b!.store, message, { text: "one, edited", files: [], model: "" }, EDITED);
    await b!.runner.idle();
    const regenerated = await fork(b!.store, message, { text: "one", files: [], model: "" }, REGENERATED);
    await b!.runner.idle();
    setBundle(undefined);
    const title = (id: string) => b!.store.get("conversations", id)?.title;
    assert.equal(title(restored), "Title (wiederhergestellt)");
    assert.equal(title(edited), "Title (bearbeitet)");
    assert.equal(title(regenerated), "Title (neu erzeugt)");
    // In English, as the constants say.
    assert.equal(title(forkBefore(b!.store, message)), `Title${RESTORED}`);
  });

  it("keeps a long title within 200 characters with the translated words", async () => {
    const message = await oneMessage("x".repeat(300), 2);
    setBundle(bundle("ja"));
    const restored = b!.store.get("conversations", forkBefore(b!.store, message))!.title;
    const edited = b!.store.get(
      "conversations",
      await fork(b!.store, message, { text: "one", files: [], model: "" }, EDITED),
    )!.title;
    await b!.runner.idle();
    assert.equal(restored, `${"x".repeat(200 - " (復元済み)".length)} (復元済み)`);
    assert.equal(edited, `${"x".repeat(200 - " (編集済み)".length)} (編集済み)`);
  });
});

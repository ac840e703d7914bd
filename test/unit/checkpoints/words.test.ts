import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setBundle } from "../../../src/protocol/l10n";
import { open, place, write, type Place } from "./fixture";

const bundle = (lang: string) =>
  JSON.parse(readFileSync(join(__dirname, `../../../l10n/bundle.l10n.${lang}.json`), "utf8")) as Record<
    string,
    string
  >;

describe("checkpoints: what the store says is in the person's language", function () {
  this.timeout(60_000);
  let p: Place;
  beforeEach(() => (p = place()));
  afterEach(() => {
    setBundle(undefined);
    p.remove();
  });

  it("labels the checkpoint taken before a restore in the language set when it is taken", async () => {
    write(p.root, { "a.txt": "one\n" });
    const c = await open(p);
    const first = await c.save("first", "conv");
    writeFileSync(join(p.root, "a.txt"), "two\n");
    await c.restore(first.id);
    setBundle(bundle("de"));
    await c.restore(first.id);
    setBundle(undefined);
    assert.deepEqual(
      c.list().map((r) => r.label),
      ["first", 'Before restoring "first"', "Vor dem Wiederherstellen von „first“"],
    );
    await c.close();
  });

  it("says an unreadable checkpoint file and an unreadable interrupted restore in the person's language", async () => {
    const c = await open(p);
    await c.close();
    writeFileSync(join(p.store, "checkpoints", "broken.json"), "{ not json");
    writeFileSync(join(p.store, "restoring.json"), "{ not json");
    setBundle(bundle("fr"));
    const again = await open(p);
    assert.deepEqual(again.problems, [
      "Le fichier de point de contrôle broken.json n'a pas pu être lu\u00a0; il a été mis de côté.",
      "Une restauration a été interrompue, mais ce qu'elle restaurait ne peut plus être lu.",
    ]);
    await again.close();
  });

  it("says a restore a crash cut short in the person's language, naming its checkpoint", async () => {
    write(p.root, { "a.txt": "one\n" });
    const c = await open(p);
    const first = await c.save("first", "conv");
    await c.close();
    writeFileSync(
      join(p.store, "restoring.json"),
      JSON.stringify({ v: 1, target: first.id, undo: first.id, started: 1 }),
    );
    setBundle(bundle("es"));
    const again = await open(p);
    assert.deepEqual(again.problems, [
      "Se interrumpió la restauración de los archivos a «first»; se puede terminar o deshacer con el punto de control tomado justo antes.",
    ]);
    await again.close();
  });
});

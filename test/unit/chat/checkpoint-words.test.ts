import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  notRestoredText,
  reasonText,
  restoredText,
  restoreQuestion,
  unsavedAmong,
} from "../../../src/chat/checkpoints/words";
import { TurnCheckpoints } from "../../../src/chat/checkpoints/turns";
import { asked } from "../../../src/chat/make";
import { setBundle } from "../../../src/protocol/l10n";
import { folder, write } from "../workspace/fixtures";

const root = join(__dirname, "../../..");
const bundle = (lang: string) =>
  JSON.parse(readFileSync(join(root, `l10n/bundle.l10n.${lang}.json`), "utf8")) as Record<string, string>;

describe("what checkpoints say: the question before a restore, and what a restore did", () => {
  afterEach(() => setBundle(undefined));

  it("finds the open files with unsaved changes among those a restore writes or removes", () => {
    const docs = [
      { path: "/w/a.txt", dirty: true, name: "a" },
      { path: "/w/b.txt", dirty: false, name: "b" },
      { path: "/w/elsewhere.txt", dirty: true, name: "elsewhere" },
      { path: "/w/sub/c.txt", dirty: true, name: "c" },
    ];
    const restored = ["/w/a.txt", "/w/b.txt", "/w/sub/../sub/c.txt", "/w/gone.txt"];
    assert.deepEqual(
      unsavedAmong(docs, restored).map((d) => d.name),
      ["a", "c"],
    );
    assert.deepEqual(unsavedAmong(docs, []), []);
  });

  it("asks in whole sentences, saying that unsaved changes are saved first", () => {
    assert.equal(
      restoreQuestion({ message: "Fix  the\nbug", files: 3, created: 1, unsaved: 2 }),
      "Restore 3 files to how they were before “Fix the bug”? 1 file created since will be removed. " +
        "Unsaved changes in 2 open files are saved first. A checkpoint of the files as they are now is taken first.",
    );
    assert.equal(
      restoreQuestion({ message: "Fix it", files: 1, created: 0, unsaved: 1 }),
      "Restore 1 file to how it was before “Fix it”? Unsaved changes in 1 open file are saved first. " +
        "A checkpoint of the files as they are now is taken first.",
    );
    assert.equal(
      restoreQuestion({ message: "Fix it", files: 4, created: 2, unsaved: 0 }),
      "Restore 4 files to how they were before “Fix it”? 2 files created since will be removed. " +
        "A checkpoint of the files as they are now is taken first.",
    );
  });

  it("says each count in its own sentence, in English and translated", () => {
    assert.equal(restoredText("Go", 0, 0), "The files were already as they were before “Go”.");
    assert.equal(
      restoredText("Go", 0, 2),
      "The files are as they were before “Go”; 2 files created since were removed.",
    );
    assert.equal(
      restoredText("Go", 3, 1),
      "Restored 3 files to how they were before “Go”; 1 file created since was removed.",
    );
    const left = ["a (x)", "b (x)", "c (x)", "d (x)", "e (x)", "f (x)", "g (x)"];
    assert.equal(notRestoredText(left), "Not restored: a (x), b (x), c (x), d (x), e (x) and 2 more.");
    assert.equal(
      notRestoredText(left.slice(0, 6)),
      "Not restored: a (x), b (x), c (x), d (x), e (x) and 1 more.",
    );
    assert.equal(notRestoredText([]), "");

    setBundle(bundle("de"));
    assert.equal(
      restoredText("Go", 3, 1),
      "3 Dateien wurden auf den Stand vor “Go” zurückgesetzt; 1 seitdem erstellte Datei wurde entfernt.",
    );
  });

  it("translates the store's reasons, keeping the error code or size they carry", () => {
    assert.equal(reasonText("not restored (EACCES)"), "not restored (EACCES)");
    assert.equal(reasonText("something the store may say one day"), "something the store may say one day");
    for (const lang of ["de", "fr", "es", "ja", "zh-cn", "pt-br"]) {
      setBundle(bundle(lang));
      const why = reasonText("not restored (EACCES)");
      assert.notEqual(why, "not restored (EACCES)", lang);
      assert.ok(why.includes("EACCES"), `${lang}: ${why}`);
      assert.notEqual(
        reasonText("not restored: it was too large to keep"),
        "not restored: it was too large to keep",
        lang,
      );
      const size = reasonText("not kept: larger than 10 MB (11 MB)");
      assert.ok(
        size.includes("10 MB") && size.includes("11 MB") && !size.startsWith("not kept"),
        `${lang}: ${size}`,
      );
    }
  });

  it("tells what a restore did in the person's language, the reasons included", async () => {
    const ws = folder();
    const storage = folder("tandem-storage-");
    const turns = new TurnCheckpoints({
      folders: () => [{ root: ws.path, name: "ws" }],
      storage: storage.path,
      settings: () => ({ enabled: true, maxFileBytes: 1024, maxTotalBytes: 64 * 1024 * 1024 }),
    });
    try {
      write(ws.path, { "a.txt": "one\n", "big.bin": Buffer.alloc(2048, 1) });
      const message = asked("Ändere a", "c");
      await turns.before(message);
      writeFileSync(join(ws.path, "a.txt"), "changed\n");
      setBundle(bundle("de"));
      const done = await turns.restore(message);
      assert.equal(
        done.text,
        "1 Datei wurde auf den Stand vor “Ändere a” zurückgesetzt. " +
          "Nicht wiederhergestellt: big.bin (nicht wiederhergestellt: die Datei war zu groß zum Speichern).",
      );
    } finally {
      await turns.close();
      ws.remove();
      storage.remove();
    }
  });
});

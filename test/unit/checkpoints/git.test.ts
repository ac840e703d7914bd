import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { open, picture, place, write, type Place } from "./fixture";

function git(root: string, ...args: string[]): void {
  execFileSync("git", ["-c", "user.name=T", "-c", "user.email=t@example.com", ...args], {
    cwd: root,
    stdio: "ignore",
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", HOME: root },
  });
}

describe("checkpoints: a workspace that is a git repository", function () {
  this.timeout(60_000);
  let p: Place;
  beforeEach(() => (p = place()));
  afterEach(() => p.remove());

  it("leaves every file under .git byte for byte as it was, through save and restore", async () => {
    write(p.root, { "src/a.ts": "a\n", "b.txt": "b\n", "sub/.git": "gitdir: ../.git/modules/sub\n" });
    git(p.root, "init", "-q");
    git(p.root, "add", "src", "b.txt");
    git(p.root, "commit", "-qm", "first");
    const gitBefore = picture(join(p.root, ".git"));
    const c = await open(p);
    const first = await c.save("first", "conv");
    assert.equal(await c.read(first.id, ".git"), null);
    assert.equal(await c.read(first.id, "sub/.git"), null);
    assert.deepEqual(picture(join(p.root, ".git")), gitBefore);

    writeFileSync(join(p.root, "src/a.ts"), "changed\n");
    unlinkSync(join(p.root, "b.txt"));
    write(p.root, { "c.txt": "new\n" });
    // The person commits meanwhile: the restore puts the files back but leaves their history alone.
    git(p.root, "add", "-A", "src", "c.txt");
    git(p.root, "commit", "-qm", "second");
    const gitCommitted = picture(join(p.root, ".git"));
    await c.save("second", "conv");
    assert.deepEqual(picture(join(p.root, ".git")), gitCommitted);

    const filesBefore = picture(p.root, true);
    await c.restore(first.id);
    assert.deepEqual(picture(join(p.root, ".git")), gitCommitted);
    assert.equal(readFileSync(join(p.root, "sub/.git"), "utf8"), "gitdir: ../.git/modules/sub\n");
    assert.notDeepEqual(picture(p.root, true), filesBefore);
    assert.equal(readFileSync(join(p.root, "src/a.ts"), "utf8"), "a\n");
    assert.equal(readFileSync(join(p.root, "b.txt"), "utf8"), "b\n");
    assert.equal(existsSync(join(p.root, "c.txt")), false);
    await c.close();
  });
});

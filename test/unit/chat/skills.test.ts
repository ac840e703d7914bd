import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Skill } from "../../../src/chat/row-schemas";
import {
  LOAD_SKILL,
  loadSkill,
  parseSkill,
  readFolderSkills,
  readSkills,
  SKILL_LIMITS,
} from "../../../src/chat/assistants/skills";

const signal = () => new AbortController().signal;

describe("skills from SKILL.md files", () => {
  let workspace: string;
  let outside: string;

  /** Writes TEXT as the SKILL.md of FOLDER/NAME in the workspace. */
  async function skillFile(folder: string, name: string, text: string | Buffer): Promise<void> {
    await mkdir(path.join(workspace, folder, name), { recursive: true });
    await writeFile(path.join(workspace, folder, name, "SKILL.md"), text);
  }

  beforeEach(async () => {
    workspace = await mkdtemp(path.join(tmpdir(), "tandem-skills-"));
    outside = await mkdtemp(path.join(tmpdir(), "tandem-outside-"));
  });
  afterEach(async () => {
    await rm(workspace, { recursive: true, force: true });
    await rm(outside, { recursive: true, force: true });
  });

  it("read name, description and body from the front matter of both folders", async () => {
    await skillFile(
      ".github/skills",
      "pdf",
      "---\nname: pdf-forms\ndescription: Use when filling in PDF forms.\nlicense: MIT\n---\n\n# PDF forms\n\nStep one.\n",
    );
    await skillFile(
      ".claude/skills",
      "release",
      "---\r\nname: 'release'\r\ndescription: \"Use when: cutting a release\"\r\n---\r\nTag it.\r\n",
    );
    const { skills, skipped } = await readSkills(workspace);
    assert.deepEqual(skipped, []);
    assert.deepEqual(skills, [
      {
        id: "file:.github/skills/pdf/SKILL.md",
        name: "pdf-forms",
        description: "Use when filling in PDF forms.",
        body: "# PDF forms\n\nStep one.",
      },
      {
        id: "file:.claude/skills/release/SKILL.md",
        name: "release",
        description: "Use when: cutting a release",
        body: "Tag it.",
      },
    ]);
  });

  it("read block and continued descriptions", async () => {
    await skillFile(
      ".github/skills",
      "a",
      "---\nname: a\ndescription: >\n  Use when the work\n  spans lines.\n---\nBody A\n",
    );
    await skillFile(
      ".github/skills",
      "b",
      "---\nname: b\ndescription: Use when\n  continued here.\n---\nBody B\n",
    );
    const { skills } = await readSkills(workspace);
    assert.deepEqual(
      skills.map((s) => s.description),
      ["Use when the work spans lines.", "Use when continued here."],
    );
  });

  it("name a file without front matter after its folder and describe it by its first paragraph", async () => {
    await skillFile(
      ".github/skills",
      "deploy-docs",
      "# Deploying the docs\n\nUse this when the docs\nsite must be published.\n\nRun `make docs`.\n",
    );
    const { skills } = await readSkills(workspace);
    assert.equal(skills.length, 1);
    assert.equal(skills[0].name, "deploy-docs");
    assert.equal(skills[0].description, "Use this when the docs site must be published.");
    assert.match(skills[0].body, /Run `make docs`\.$/);
  });

  it("skip broken files with the reason, and read the rest", async () => {
    await skillFile(".github/skills", "good", "---\nname: good\ndescription: fine\n---\nWorks.\n");
    await skillFile(".github/skills", "unclosed", "---\nname: unclosed\ndescription: never closed\n");
    await skillFile(".github/skills", "empty", "---\nname: empty\n---\n\n");
    await skillFile(".github/skills", "binary", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]));
    await skillFile(".github/skills", "latin1", Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    await skillFile(".github/skills", "huge", `---\nname: huge\n---\n${"x".repeat(SKILL_LIMITS.fileBytes)}`);
    await skillFile(".github/skills", "longname", `---\nname: ${"n".repeat(80)}\n---\nBody\n`);
    await skillFile(".claude/skills", "again", "---\nname: GOOD\ndescription: same name\n---\nOther.\n");
    const { skills, skipped } = await readSkills(workspace);
    assert.deepEqual(
      skills.map((s) => s.name),
      ["good"],
    );
    const reasons = Object.fromEntries(skipped.map((s) => [s.path, s.reason]));
    assert.deepEqual(Object.keys(reasons).sort(), [
      ".claude/skills/again/SKILL.md",
      ".github/skills/binary/SKILL.md",
      ".github/skills/empty/SKILL.md",
      ".github/skills/huge/SKILL.md",
      ".github/skills/latin1/SKILL.md",
      ".github/skills/longname/SKILL.md",
      ".github/skills/unclosed/SKILL.md",
    ]);
    assert.match(reasons[".github/skills/unclosed/SKILL.md"], /front matter .* is not closed/);
    assert.match(reasons[".github/skills/empty/SKILL.md"], /no instructions/);
    assert.equal(reasons[".github/skills/binary/SKILL.md"], "it is not text");
    assert.equal(reasons[".github/skills/latin1/SKILL.md"], "it is not UTF-8 text");
    assert.match(reasons[".github/skills/huge/SKILL.md"], /too large \(257 KB; the limit is 256 KB\)/);
    assert.match(reasons[".github/skills/longname/SKILL.md"], /longer than 64 characters/);
    assert.equal(
      reasons[".claude/skills/again/SKILL.md"],
      'a skill named "GOOD" was already read from .github/skills/good/SKILL.md',
    );
  });

  it("skip a skill that leads outside the workspace through a link", async () => {
    await mkdir(path.join(outside, "secret"), { recursive: true });
    await writeFile(path.join(outside, "secret", "SKILL.md"), "---\nname: secret\n---\nOutside.\n");
    await mkdir(path.join(workspace, ".github/skills"), { recursive: true });
    await symlink(path.join(outside, "secret"), path.join(workspace, ".github/skills/secret"));
    await mkdir(path.join(workspace, ".claude/skills/linked"), { recursive: true });
    await symlink(
      path.join(outside, "secret", "SKILL.md"),
      path.join(workspace, ".claude/skills/linked/SKILL.md"),
    );
    const { skills, skipped } = await readSkills(workspace);
    assert.deepEqual(skills, []);
    assert.deepEqual(skipped, [
      { path: ".github/skills/secret/SKILL.md", reason: "it leads outside the workspace" },
      { path: ".claude/skills/linked/SKILL.md", reason: "it leads outside the workspace" },
    ]);
  });

  it("ignore files beside the skill folders, folders without SKILL.md, and a workspace without skills", async () => {
    await mkdir(path.join(workspace, ".github/skills/no-file"), { recursive: true });
    await writeFile(path.join(workspace, ".github/skills/README.md"), "not a skill");
    assert.deepEqual(await readSkills(workspace), { skills: [], skipped: [] });
    assert.deepEqual(await readSkills(path.join(workspace, "missing")), { skills: [], skipped: [] });
  });

  it("read each folder's own skills in a workspace of two folders, named by folder", async () => {
    await skillFile(".github/skills", "a", "---\nname: a\ndescription: Use for A.\n---\nA\n");
    const second = path.join(outside, "api");
    await mkdir(path.join(second, ".claude/skills/b"), { recursive: true });
    await writeFile(
      path.join(second, ".claude/skills/b/SKILL.md"),
      "---\nname: b\ndescription: Use for B.\n---\nB\n",
    );
    const { skills, skipped } = await readFolderSkills([
      { name: "web", root: workspace },
      { name: "api", root: second },
    ]);
    assert.deepEqual(skipped, []);
    assert.deepEqual(
      skills.map((s) => [s.id, s.name, s.body]),
      [
        ["file:web/.github/skills/a/SKILL.md", "a", "A"],
        ["file:api/.claude/skills/b/SKILL.md", "b", "B"],
      ],
    );
  });

  it("cut a description that is too long", () => {
    const skill = parseSkill(`---\ndescription: ${"d".repeat(2000)}\n---\nBody`, "folder");
    assert.equal(skill.name, "folder");
    assert.equal(skill.description.length, SKILL_LIMITS.description);
    assert.ok(skill.description.endsWith("…"));
  });
});

describe("the load_skill tool", () => {
  const skills: Skill[] = [
    {
      id: "1",
      name: "pdf-forms",
      description: "Use when filling in PDF forms.",
      body: "# PDF forms\nStep one.",
    },
    { id: "2", name: "release", description: "Use when cutting a release.", body: "Tag it." },
    { id: "file:x", name: "Release", description: "A file's skill of the same name.", body: "Ignored." },
    { id: "3", name: "blank", description: "no body", body: "  " },
  ];

  it("lists each skill's name and when to use it, and reads only", () => {
    const tool = loadSkill(skills);
    assert.ok(tool);
    assert.equal(tool.name, LOAD_SKILL);
    assert.equal(tool.readOnly, true);
    assert.match(
      tool.description,
      /\n- pdf-forms: Use when filling in PDF forms\.\n- release: Use when cutting a release\.$/,
    );
    assert.doesNotMatch(tool.description, /blank|same name/);
    assert.deepEqual((tool.parameters as { required?: string[] }).required, ["name"]);
  });

  it("answers the body of the skill named, whatever its case", async () => {
    const tool = loadSkill(skills);
    assert.equal(await tool?.run('{"name":"pdf-forms"}', signal()), "# PDF forms\nStep one.");
    assert.equal(await tool?.run('{"name":" RELEASE "}', signal()), "Tag it.");
  });

  it("fails with the names it knows when the name is unknown, and on bad arguments", async () => {
    const tool = loadSkill(skills);
    await assert.rejects(
      tool!.run('{"name":"deploy"}', signal()),
      /no skill named "deploy"\. The skills are: pdf-forms, release\./,
    );
    await assert.rejects(tool!.run('{"skill":"release"}', signal()), /do not match the schema/);
    await assert.rejects(tool!.run("{", signal()), /not valid JSON/);
  });

  it("is not offered when there is no skill", () => {
    assert.equal(loadSkill([]), undefined);
    assert.equal(loadSkill([skills[3]]), undefined);
  });

  it("keeps its description short when there are many skills", () => {
    const many = Array.from({ length: 100 }, (_, i) => ({
      id: String(i),
      name: `skill-${i}`,
      description: "w".repeat(500),
      body: "b",
    }));
    const tool = loadSkill(many);
    assert.ok(tool && tool.description.length < 10_000);
    assert.match(tool.description, /- and \d+ more: .*skill-99$/);
  });
});

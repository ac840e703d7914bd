import assert from "node:assert/strict";
import { spawnLine } from "../../../src/chat/workspace/background";
import { commandEnv, secretName } from "../../../src/chat/workspace/command-env";
import { tmpdir } from "node:os";

/** Runs `script` with node through spawnLine (as VS Code's terminal runs a command) and answers what it printed. */
function printed(script: string, env?: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve) => {
    let output = "";
    const line = `"${process.execPath}" -e ${JSON.stringify(script)}`;
    spawnLine(
      { command: line, cwd: tmpdir(), shown: "." },
      { output: (text) => void (output += text), exit: () => resolve(output) },
      env,
    );
  });
}

describe("the environment of a command: the person's secrets are kept from it", () => {
  it("tells secret-looking names from ordinary ones", () => {
    for (const name of [
      "OPENAI_API_KEY",
      "AI_API_KEY",
      "ANTHROPIC_API_KEY",
      "GITHUB_TOKEN",
      "NPM_TOKEN",
      "npm_config__authToken",
      "HF_TOKEN",
      "AWS_SECRET_ACCESS_KEY",
      "AWS_ACCESS_KEY_ID",
      "AWS_SESSION_TOKEN",
      "CLIENT_SECRET",
      "DB_PASSWORD",
      "PGPASSWORD",
      "STRIPE_KEY",
      "APIKEY",
      "GOOGLE_APPLICATION_CREDENTIALS",
      "SENTRY_DSN",
    ])
      assert.ok(secretName(name), name);
    for (const name of [
      "PATH",
      "HOME",
      "PWD",
      "OLDPWD",
      "LANG",
      "NODE_ENV",
      "TOKENIZERS_PARALLELISM",
      "SSH_AUTH_SOCK",
      "KEYTIMEOUT",
      "MONKEY_MODE",
      "AI_URL",
      "AI_MODEL",
    ])
      assert.ok(!secretName(name), name);
  });

  it("keeps the secrets out, but those the person passes on by name, and says which it kept", () => {
    const { env, withheld } = commandEnv(["NPM_TOKEN"], {
      PATH: "/bin",
      OPENAI_API_KEY: "sk-1",
      NPM_TOKEN: "npm-2",
      GITHUB_TOKEN: "ghp-3",
    });
    assert.deepEqual(env, { PATH: "/bin", NPM_TOKEN: "npm-2" });
    assert.deepEqual(withheld.sort(), ["GITHUB_TOKEN", "OPENAI_API_KEY"]);
  });

  it("a command started by spawnLine does not see the extension host's key, and sees its other variables", async () => {
    const before = { key: process.env.OPENAI_API_KEY, plain: process.env.TANDEM_PLAIN_VARIABLE };
    process.env.OPENAI_API_KEY = "sk-host-secret-42";
    process.env.TANDEM_PLAIN_VARIABLE = "plain-7";
    try {
      const out = await printed("console.log(JSON.stringify(process.env))");
      assert.ok(!out.includes("sk-host-secret-42"), out);
      assert.ok(out.includes("plain-7"));
      // The person's own list lets it through.
      const passed = await printed(
        "console.log(process.env.OPENAI_API_KEY)",
        commandEnv(["OPENAI_API_KEY"]).env,
      );
      assert.equal(passed.trim(), "sk-host-secret-42");
    } finally {
      for (const [name, value] of [
        ["OPENAI_API_KEY", before.key],
        ["TANDEM_PLAIN_VARIABLE", before.plain],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });
});

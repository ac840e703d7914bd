import assert from "node:assert/strict";
import { spawnLine } from "../../../src/chat/workspace/background";
import {
  commandEnv,
  editorBridge,
  gitBridge,
  passwordInValue,
  secretName,
} from "../../../src/chat/workspace/command-env";
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

  it("keeps VS Code's git credential bridge out, but the person's own askpass, and passes it on by name", () => {
    const askpass = "/usr/share/code/resources/app/extensions/git/dist/askpass.sh";
    const host = {
      PATH: "/bin",
      GIT_ASKPASS: askpass,
      SSH_ASKPASS:
        "C:\\Program Files\\Microsoft VS Code\\resources\\app\\extensions\\git\\dist\\ssh-askpass.sh",
      VSCODE_GIT_ASKPASS_NODE: "/usr/share/code/code",
      VSCODE_GIT_ASKPASS_MAIN: "/usr/share/code/resources/app/extensions/git/dist/askpass-main.js",
      VSCODE_GIT_ASKPASS_EXTRA_ARGS: "",
      VSCODE_GIT_IPC_HANDLE: "/run/user/1000/vscode-git-0a1b2c3d4e.sock",
    };
    const { env, withheld } = commandEnv([], host);
    assert.deepEqual(env, { PATH: "/bin" });
    assert.deepEqual(withheld.sort(), Object.keys(host).slice(1).sort());
    // The person's own askpass program is theirs to give.
    assert.ok(!gitBridge("SSH_ASKPASS", "/usr/lib/ssh/x11-ssh-askpass"));
    assert.ok(!gitBridge("GIT_ASKPASS", "/home/me/bin/askpass.sh"));
    const passed = commandEnv(["GIT_ASKPASS", "VSCODE_GIT_IPC_HANDLE"], host);
    assert.deepEqual(passed.env, {
      PATH: "/bin",
      GIT_ASKPASS: askpass,
      VSCODE_GIT_IPC_HANDLE: host.VSCODE_GIT_IPC_HANDLE,
    });
  });

  it("keeps VS Code's command-line bridge out (the `code` command would drive the editor), unless passed on", () => {
    assert.ok(editorBridge("VSCODE_IPC_HOOK_CLI"));
    assert.ok(editorBridge("VSCODE_CLIENT_COMMAND"));
    assert.ok(!editorBridge("VSCODE_PID"));
    assert.ok(!editorBridge("TERM_PROGRAM"));
    const env = { VSCODE_IPC_HOOK_CLI: "/run/user/1000/vscode-ipc-1.sock", TERM_PROGRAM: "vscode" };
    const { env: given, withheld } = commandEnv([], env);
    assert.equal(given.VSCODE_IPC_HOOK_CLI, undefined);
    assert.equal(given.TERM_PROGRAM, "vscode");
    assert.deepEqual(withheld, ["VSCODE_IPC_HOOK_CLI"]);
    assert.equal(commandEnv(["VSCODE_IPC_HOOK_CLI"], env).env.VSCODE_IPC_HOOK_CLI, env.VSCODE_IPC_HOOK_CLI);
  });

  it("keeps out a variable whose value is a URL with a password, whole, unless passed on by name", () => {
    for (const value of [
      "postgres://user:secret@host/db",
      "https://user:token@github.com/me/repo.git",
      "redis://:p4ss@cache:6379/0",
      "http://proxy-user:pa55@proxy.corp:3128",
      "mongodb+srv://app:hunter2@cluster0.example.net/?retryWrites=true",
      "first https://example.com second amqp://guest:guest@rabbit",
    ])
      assert.ok(passwordInValue(value), value);
    for (const value of [
      "postgres://user@host/db",
      "https://github.com/me/repo.git",
      "http://localhost:8080/path@v2",
      "https://example.com/?next=a:b@c",
      "git@github.com:me/repo.git",
      "/usr/local/bin:/usr/bin",
      "user:pass@host",
    ])
      assert.ok(!passwordInValue(value), value);
    const host = {
      PATH: "/bin",
      DATABASE_URL: "postgres://app:db-secret@db.internal:5432/app",
      PIP_INDEX_URL: "https://ci:token@pypi.example.com/simple",
      HOMEPAGE: "https://example.com",
    };
    const { env, withheld } = commandEnv(["PIP_INDEX_URL"], host);
    // No half-URL is left behind: the variable is there whole, or not at all.
    assert.deepEqual(env, {
      PATH: "/bin",
      PIP_INDEX_URL: host.PIP_INDEX_URL,
      HOMEPAGE: "https://example.com",
    });
    assert.deepEqual(withheld, ["DATABASE_URL"]);
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

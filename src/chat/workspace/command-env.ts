/**
 * The environment a command the agent runs is given: the extension host's, without the variables
 * whose names say they hold a secret (API keys, tokens, passwords). A command runs what the
 * repository defines (a test script, a Makefile), so it must not be handed the person's keys unless
 * they named them in their own setting (`tandem.environment.passToCommands`). Kept too: VS Code's git
 * credential bridge (with it a command could have the git extension hand out the person's git
 * credentials), VS Code's command-line bridge (with it `code` would drive the person's editor) and
 * variables whose value is a URL with a password in it.
 */

/** Names that say a variable holds a secret, matched on the name in upper case. */
const SECRET_NAMES = [
  // GITHUB_TOKEN, NPM_TOKEN, npm_config__authToken; not TOKENIZERS_PARALLELISM.
  /TOKENS?(_|$)/,
  // AWS_SECRET_ACCESS_KEY, CLIENT_SECRET, SECRET.
  /(^|_)SECRET/,
  /PASSWORD|PASSWD|PASSPHRASE/,
  // OPENAI_API_KEY, AI_API_KEY, APIKEY, AWS_ACCESS_KEY_ID, STRIPE_KEY, SSH_PRIVATE_KEY.
  /(^|_)(API|ACCESS|PRIVATE|SECRET|AUTH|SIGNING|ENCRYPTION|MASTER|SESSION|LICENSE|CLIENT|ADMIN|SERVICE)_?KEYS?(_|$)/,
  /(^|_)KEY$/,
  /CREDENTIAL/,
  /(^|_)(AUTH|COOKIE|DSN)$/,
];

/** True when the variable's name says it holds a secret. */
export function secretName(name: string): boolean {
  const upper = name.toUpperCase();
  return SECRET_NAMES.some((pattern) => pattern.test(upper));
}

/**
 * VS Code's git extension's askpass: `VSCODE_GIT_IPC_HANDLE` and the `VSCODE_GIT_ASKPASS_*` it runs
 * with. Any process holding them can ask the extension for the person's git credentials.
 */
const GIT_BRIDGE = /^VSCODE_GIT_/;

/** The askpass programs VS Code's git extension sets in `GIT_ASKPASS` / `SSH_ASKPASS` (`…/extensions/git/dist/askpass.sh`). */
const VSCODE_ASKPASS = /[\\/]git[\\/]dist[\\/](ssh-)?askpass(-empty)?\.(sh|bat|cmd)$/i;

/** A URL with a password before its host: `postgres://user:secret@host/db`, `https://user:token@host`. */
const URL_PASSWORD = /[a-z][a-z0-9+.-]*:\/\/[^\s/?#@:]*:[^\s/?#@]+@/i;

/** True when the variable lets a command reach VS Code's git credentials. */
export function gitBridge(name: string, value = ""): boolean {
  const upper = name.toUpperCase();
  if (GIT_BRIDGE.test(upper)) return true;
  return (upper === "GIT_ASKPASS" || upper === "SSH_ASKPASS") && VSCODE_ASKPASS.test(value.trim());
}

/**
 * VS Code's own command-line bridge (`VSCODE_IPC_HOOK_CLI` and the client command it names): with it,
 * the `code` command in a script opens files and windows in the person's running editor, or installs
 * extensions into it.
 */
const EDITOR_BRIDGE = /^VSCODE_(IPC_HOOK|CLIENT_COMMAND)/;

/** True when the variable lets a command drive the person's running VS Code. */
export function editorBridge(name: string): boolean {
  return EDITOR_BRIDGE.test(name.toUpperCase());
}

/** True when the value holds a URL with a password in it (the whole variable is kept: half a URL misleads). */
export function passwordInValue(value: string): boolean {
  return URL_PASSWORD.test(value);
}

/** True when a command must not be given the variable unless the person passes it on by name. */
export function kept(name: string, value = ""): boolean {
  return secretName(name) || gitBridge(name, value) || editorBridge(name) || passwordInValue(value);
}

/** The environment for a command, and the names of the variables kept from it. */
export interface CommandEnvironment {
  env: NodeJS.ProcessEnv;
  withheld: string[];
}

/**
 * `env` (default: the extension host's) without its secret-looking variables, VS Code's git
 * credential bridge and variables holding a URL's password, except those the person lets through by
 * name in `passed`.
 */
export function commandEnv(
  passed: readonly string[] = [],
  env: NodeJS.ProcessEnv = process.env,
): CommandEnvironment {
  // Windows reads variable names in any case.
  const key = (name: string) => (process.platform === "win32" ? name.toUpperCase() : name);
  const pass = new Set(passed.map((name) => key(name.trim())).filter(Boolean));
  const out: NodeJS.ProcessEnv = {};
  const withheld: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (kept(name, value ?? "") && !pass.has(key(name))) withheld.push(name);
    else out[name] = value;
  }
  return { env: out, withheld };
}

/**
 * The environment a command the agent runs is given: the extension host's, without the variables
 * whose names say they hold a secret (API keys, tokens, passwords). A command runs what the
 * repository defines (a test script, a Makefile), so it must not be handed the person's keys unless
 * they named them in their own setting (`tandem.environment.passToCommands`).
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

/** The environment for a command, and the names of the variables kept from it. */
export interface CommandEnvironment {
  env: NodeJS.ProcessEnv;
  withheld: string[];
}

/**
 * `env` (default: the extension host's) without its secret-looking variables, except those the
 * person lets through by name in `passed`.
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
    if (secretName(name) && !pass.has(key(name))) withheld.push(name);
    else out[name] = value;
  }
  return { env: out, withheld };
}

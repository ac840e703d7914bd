/**
 * What of the person's home a sandboxed command must not see or change: the files and folders
 * where their keys, tokens and logins live (hidden: an empty folder or an empty file in their
 * place), and, when a workspace folder holds the home itself, the start-up and configuration files
 * that run code at the next login or shell (kept read-only).
 */

import { readdir, realpath, stat } from "node:fs/promises";
import { join, relative, isAbsolute, sep } from "node:path";

/** Where a person's secrets live, relative to their home: SSH and cloud keys, registry tokens, keyrings, browser profiles. */
export const SECRETS = [
  ".ssh",
  ".aws",
  ".azure",
  ".config/gcloud",
  ".kube",
  ".docker",
  ".config/gh",
  ".config/hub",
  ".config/glab-cli",
  ".npmrc",
  ".yarnrc",
  ".yarnrc.yml",
  ".pypirc",
  ".netrc",
  ".git-credentials",
  ".config/git/credentials",
  ".gnupg",
  ".password-store",
  ".local/share/keyrings",
  ".config/op",
  ".vault-token",
  ".terraform.d",
  ".pgpass",
  ".my.cnf",
  ".cargo/credentials",
  ".cargo/credentials.toml",
  ".gem/credentials",
  ".m2/settings.xml",
  ".gradle/gradle.properties",
  ".config/rclone",
  ".mozilla",
  ".config/google-chrome",
  ".config/chromium",
  ".config/BraveSoftware",
  "Library/Keychains",
  "Library/Application Support/Google/Chrome",
  "Library/Application Support/Firefox",
];

/** A path to hide, and whether it is a folder (an empty folder goes over it) or a file (an empty file). */
export interface Hidden {
  path: string;
  folder: boolean;
}

/** The secrets of `SECRETS` that exist under `home`, by their real paths (a link's target is what is read through it). */
export async function secretsIn(home: string): Promise<Hidden[]> {
  const found = await Promise.all(
    SECRETS.map(async (name) => {
      const path = await realpath(join(home, name)).catch(() => undefined);
      const s = path ? await stat(path).catch(() => undefined) : undefined;
      return path && s ? { path, folder: s.isDirectory() } : undefined;
    }),
  );
  return found.filter((h): h is Hidden => h !== undefined);
}

/** True when `path` is `folder` or inside it. */
export function within(folder: string, path: string): boolean {
  const rel = relative(folder, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

/**
 * The home's own dot files and folders (`.bashrc`, `.profile`, `.config`, `.local`…) when one of
 * `writable` holds the home: a command may write the workspace, never what runs when the person
 * next opens a shell or logs in.
 */
export async function homeConfig(home: string, writable: readonly string[]): Promise<string[]> {
  if (!writable.some((folder) => within(folder, home))) return [];
  const names = await readdir(home).catch(() => [] as string[]);
  return names.filter((name) => name.startsWith(".")).map((name) => join(home, name));
}

/**
 * VS Code's git extension, reached through its public API (`vscode.git`, API version 1): the
 * repositories it has opened, their diffs and their commit message box. Only the few members Tandem
 * uses are typed here.
 */
import vscode = require("vscode");
import type { DiffOf } from "../chat/workspace";

/** One changed file, as the git API lists it. */
interface Change {
  readonly uri: vscode.Uri;
}

/** A repository the git extension has open. */
export interface Repository {
  readonly rootUri: vscode.Uri;
  readonly inputBox: { value: string };
  /** `git diff [--cached]`: the whole patch. */
  diff(cached?: boolean): Promise<string>;
  /** `git diff -- path` (the working tree against the index). */
  diffWithHEAD(path: string): Promise<string>;
  /** `git diff --cached -- path`. */
  diffIndexWithHEAD(path: string): Promise<string>;
  /** `git diff ref -- path`, or the files changed against `ref` without a path. */
  diffWith(ref: string): Promise<Change[]>;
  diffWith(ref: string, path: string): Promise<string>;
}

interface API {
  readonly state: "uninitialized" | "initialized";
  readonly onDidChangeState: vscode.Event<"uninitialized" | "initialized">;
  readonly repositories: Repository[];
  getRepository(uri: vscode.Uri): Repository | null;
  openRepository?(root: vscode.Uri): Promise<Repository | null>;
}

interface GitExtension {
  readonly enabled: boolean;
  getAPI(version: 1): API;
}

/** Milliseconds to wait for the git extension to find its repositories after it starts. */
const READY_MS = 10_000;

/** The git extension's API, ready; throws a message the person and the model can act on when there is none. */
export async function gitApi(): Promise<API> {
  const extension = vscode.extensions.getExtension<GitExtension>("vscode.git");
  if (!extension)
    throw new Error(vscode.l10n.t("VS Code's git extension is not available, so git cannot be read."));
  const git = extension.isActive ? extension.exports : await extension.activate();
  if (!git?.enabled)
    throw new Error(vscode.l10n.t('VS Code\'s git support is turned off (the "git.enabled" setting).'));
  const api = git.getAPI(1);
  if (api.state !== "initialized") {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, READY_MS);
      const listener = api.onDidChangeState((state) => state === "initialized" && done());
      function done() {
        clearTimeout(timer);
        listener.dispose();
        resolve();
      }
    });
  }
  return api;
}

/** The repository holding `uri` (the workspace folder when not given), opened if git has not yet. */
export async function repositoryOf(uri?: vscode.Uri): Promise<Repository> {
  const api = await gitApi();
  const folder = uri ?? vscode.workspace.workspaceFolders?.[0]?.uri;
  const found =
    (folder && api.getRepository(folder)) ||
    (folder && (await api.openRepository?.(folder))) ||
    (!folder ? api.repositories[0] : undefined);
  if (!found) throw new Error(vscode.l10n.t("The workspace is not in a git repository."));
  return found;
}

/** Characters of a diff against a ref gathered before the rest is left out (the tool shows less). */
const GATHER_CHARS = 256 * 1024;

/** The diff a `git_diff` call asks for, as patch text (the ref was checked not to be an option). */
export async function gitDiff(of: DiffOf, signal: AbortSignal): Promise<string> {
  // Git obeys a repository's own configuration (hooks, external diff programs): only in a trusted workspace.
  if (!vscode.workspace.isTrusted) throw new Error(vscode.l10n.t("Git is read only in a trusted workspace."));
  const repository = await repositoryOf(of.path ? vscode.Uri.file(of.path) : undefined);
  if (of.kind === "staged") return of.path ? repository.diffIndexWithHEAD(of.path) : repository.diff(true);
  if (of.kind === "unstaged") return of.path ? repository.diffWithHEAD(of.path) : repository.diff(false);
  if (of.path) return repository.diffWith(of.ref, of.path);
  // Against a ref the API lists the changed files; their patches are gathered one by one.
  let text = "";
  for (const change of await repository.diffWith(of.ref)) {
    if (signal.aborted || text.length > GATHER_CHARS) break;
    text += await repository.diffWith(of.ref, change.uri.fsPath);
  }
  return text;
}

import vscode = require("vscode");
import type { Tool } from "../agent/types";
import type { RunnerHost, Runner } from "../chat/runner";
import type { Store } from "../chat/store";
import type { Assistant, Item } from "../chat/row-schemas";
import type { Question } from "../chat/approval";
import { argsOf } from "../protocol/args";
import type { PersonKept } from "../chat/panel";
import { join } from "node:path";
import { approvalSettings, askByNotification, commandRules } from "./approval-settings";
import type { VsCodeEditor } from "./vscode-editor";
import type { PendingList } from "../chat/pending";
import type { Models } from "./models";
import { settings } from "./settings";
import type { Status } from "./status";
import { core } from "./core";
import { inGroup, PLUGINS_GROUP, VSCODE_GROUP } from "../chat/approval";

/** The conversations of this workspace: their store and the runner that answers them. */
export interface Opened {
  store: Store;
  runner: Runner;
  /**
   * Ends the runs going on (marked interrupted), the plugins, then writes what the store holds and closes
   * it; once, however often it is called. Extension deactivation awaits it: VS Code gives a closing
   * window's extensions a few seconds for it, and a store left to close on its own was cut off with them.
   */
  close(): Promise<void>;
}

/** The workspace folder the tools work in (the first one), if a folder is open. */
export function workspaceRoot(): string | undefined {
  const folder = vscode.workspace.workspaceFolders?.[0];
  return folder?.uri.scheme === "file" ? folder.uri.fsPath : undefined;
}

/** Every folder of the workspace on disk, with its name (the tools name paths by folder when there are several). */
export function workspaceFolders(): { root: string; name: string }[] {
  return (vscode.workspace.workspaceFolders ?? [])
    .filter((folder) => folder.uri.scheme === "file")
    .map((folder) => ({ root: folder.uri.fsPath, name: folder.name }));
}

/** Every workspace folder on disk, each with its own project instructions and assistants. */
export function workspaceRoots(): string[] {
  return workspaceFolders().map((folder) => folder.root);
}

/** The repository's assistants (`.tandem/assistants/*.md`) of every workspace folder, as the person reviewed them. */
export async function repositoryAssistants(pending: PendingList = []): Promise<Assistant[]> {
  return (await core().readAssistantFiles(workspaceRoots(), pending)).assistants;
}

/**
 * The person's own assistants for every workspace, in a file of the extension's global storage
 * (VS Code's per-user, per-profile folder: no repository writes there); the core loads on first use.
 */
export function personKept(context: vscode.ExtensionContext): PersonKept {
  const file = join(context.globalStorageUri.fsPath, "assistants.json");
  const kept = () => new (core().PersonAssistants)(file);
  return {
    list: () => kept().list(),
    save: (assistant) => kept().save(assistant),
    remove: (id) => kept().remove(id),
  };
}

/**
 * The tools VS Code knows (its own, other extensions', VS Code's MCP servers) as core tools, asked
 * about like ours; in their group, sent only when the person chose them or the model opens it.
 */
function editorTools(): Tool[] {
  return vscode.lm.tools
    .filter((t) => /^[a-zA-Z0-9_-]{1,64}$/.test(t.name))
    .map((t) => ({
      group: VSCODE_GROUP,
      name: t.name,
      description: t.description,
      parameters: (t.inputSchema as Record<string, unknown> | undefined) ?? {
        type: "object",
        properties: {},
      },
      readOnly: false,
      async run(args: string, signal: AbortSignal) {
        const cancel = new vscode.CancellationTokenSource();
        signal.addEventListener("abort", () => cancel.cancel(), { once: true });
        const input = argsOf(args);
        const result = await vscode.lm.invokeTool(
          t.name,
          { input, toolInvocationToken: undefined },
          cancel.token,
        );
        return result.content
          .map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : JSON.stringify(part)))
          .join("\n");
      },
    }));
}

/** The tools Tandem's agent is offered here: the workspace's (read-only ones when untrusted) and VS Code's (not while local only). */
export async function agentTools(editor: VsCodeEditor): Promise<Tool[]> {
  const workspace = core();
  const root = workspaceRoot();
  const own = root
    ? workspace.workspaceTools({
        root,
        folders: workspaceFolders(),
        editor,
        trusted: vscode.workspace.isTrusted,
        exclude: vscode.workspace.getConfiguration("files").get("exclude") ?? {},
        // VS Code's own ripgrep searches; without one the tools walk the folder in Node.
        ripgrep: workspace.ripgrepUnder(vscode.env.appRoot),
        allowPrivate: settings().allowPrivate,
        setting: "tandem.plugins.allowPrivateAddresses",
        localOnly: settings().localOnly,
      })
    : [];
  // VS Code's tools (its web fetch, other extensions' MCP servers) connect where they like: not while local only.
  const theirs = vscode.workspace.isTrusted && !settings().localOnly;
  return [...own, ...(theirs ? editorTools() : [])];
}

/**
 * Opens the store in the workspace's storage folder (global storage with no folder open) and starts the
 * runner, which answers every unanswered message whether or not the panel is open. Loaded on first use.
 */
export async function openConversations(
  context: vscode.ExtensionContext,
  parts: {
    models: Models;
    editor: VsCodeEditor;
    status: Status;
    running: (chat: string, running: boolean) => void;
    /** Records the files before an answer writes (none: no checkpoints). */
    checkpoint?: (message: Item) => Promise<void>;
  },
): Promise<Opened> {
  const { Store, serveConversations, AgentPlugins } = core();
  const workspace = core();
  const skills = core();
  const folder = (context.storageUri ?? context.globalStorageUri).fsPath;
  const later: { runner?: Runner } = {};
  const store = await Store.open(folder, {
    onProblem: (text) =>
      void vscode.window.showWarningMessage(vscode.l10n.t("Tandem's conversations: {0}", text)),
    // Another window held the conversations and let go: this one answers from now on.
    onWritable: () => later.runner?.start(),
  });
  const active = new Set<string>();
  // Context pulled in with `@` and pasted images, kept in this storage folder (see chat/context-refs).
  const { Kept, sweepKept } = core();
  const kept = new Kept(folder);
  // Kept files no message refers to (their conversation deleted while no panel was open, or a paste
  // never sent) go; one kept in the last hour may belong to a message another window is sending.
  const hourAgo = Date.now() - 60 * 60 * 1000;
  void store
    .findItems((i) => i.files.length > 0, '"files":[{')
    .then((used) => sweepKept(folder, used, hourAgo))
    .catch((error: unknown) => console.error(`Tandem: unused context files stay: ${String(error)}`));
  const plugins = new AgentPlugins(store, context.secrets, {
    trusted: () => vscode.workspace.isTrusted,
    allowPrivate: () => settings().allowPrivate,
    localOnly: () => settings().localOnly,
    cwd: workspaceRoot,
    approveStart: async (line) => {
      const allow = vscode.l10n.t("Allow");
      const said = await vscode.window.showWarningMessage(
        vscode.l10n.t("Allow Tandem to start {0}?", line),
        { modal: true, detail: vscode.l10n.t("A plugin runs this program on this computer.") },
        allow,
      );
      return said === allow;
    },
  });
  const host: RunnerHost = {
    model: (id) => parts.models.resolve(id),
    // A subagent's model is one of the person's catalogue, by id.
    choices: async () => (await parts.models.choices()).map((c) => c.id),
    tools: async (assistant) => [
      ...(await agentTools(parts.editor)),
      ...(await plugins.tools(assistant)).map((t) => inGroup(t, PLUGINS_GROUP)),
    ],
    chosenTools: () => settings().chosenTools,
    // The engine judged the call (settings, protected paths, hosts); the person answers its question.
    approve: async (_call: Item, signal: AbortSignal, question: Question) => {
      const settled = new Promise<void>((resolve) =>
        signal.addEventListener("abort", () => resolve(), { once: true }),
      );
      return (await askByNotification(question, settled)) ?? false;
    },
    approvals: approvalSettings,
    commands: commandRules,
    notes: () => parts.editor.notes(),
    root: workspaceRoot,
    folders: workspaceFolders,
    // Each folder's own project instructions are read (AGENTS.md…), as text for the model.
    roots: workspaceFolders,
    // An instruction file, skill or assistant with the agent's change pending is read as reviewed.
    pendingChanges: () => parts.editor.reviewed(),
    assistants: async () => repositoryAssistants(await parts.editor.reviewed()),
    personAssistants: () => personKept(context).list(),
    files: async (path, name) => {
      const keptFile = kept.attachment(path, name);
      if (keptFile) return keptFile;
      const folders = workspace.nameFolders(workspaceFolders());
      if (!folders.length) throw new Error(vscode.l10n.t("Open a folder to attach its files."));
      // A file of any folder of the workspace can be attached: the folder its path names
      // (`api/src/a.ts`, as the tools and the picker name it), else the first folder that holds it.
      let full: string | undefined;
      let refused: unknown;
      for (const at of workspace.placesOf(folders, path)) {
        full = await workspace.inside(at.folder.root, at.path).catch((error: unknown) => {
          refused = error;
          return undefined;
        });
        if (full) break;
      }
      if (!full) throw refused;
      const { size, type } = await vscode.workspace.fs.stat(vscode.Uri.file(full));
      // A named pipe or a device (type Unknown) would block the read that attaches it.
      if (!(type & vscode.FileType.File))
        throw new Error(vscode.l10n.t("{0} is not a regular file; only regular files are attached.", name));
      const limit = settings().attachmentBytes;
      if (size > limit)
        throw new Error(
          vscode.l10n.t(
            "{0} is {1} KB; the limit is {2} KB.",
            name,
            Math.round(size / 1024),
            Math.round(limit / 1024),
          ),
        );
      return { name, type: "", path: full };
    },
    // Each folder's skills, read inside that folder (named by folder when there are several).
    skills: async () =>
      (await skills.readFolderSkills(skills.nameFolders(workspaceFolders()), await parts.editor.reviewed()))
        .skills,
    // Read at each run, so a changed setting applies to the next answer.
    get limits() {
      const s = settings();
      return { rounds: s.rounds, maxTokens: s.maxTokens, maxMs: s.maxMs };
    },
    trusted: () => vscode.workspace.isTrusted,
    running: (chat, running) => {
      if (running) active.add(chat);
      else active.delete(chat);
      parts.status.setRunning(active.size);
      parts.running(chat, running);
    },
    problem: (text) => void vscode.window.showErrorMessage(vscode.l10n.t("Tandem: {0}", text)),
    checkpoint: parts.checkpoint,
  };
  const started = serveConversations(store, host);
  later.runner = started;
  let closed: Promise<void> | undefined;
  const close = () =>
    (closed ??= started
      .close()
      .then(() => plugins.close())
      .then(() => store.close()));
  context.subscriptions.push({ dispose: () => void close() });
  return { store, runner: started, close };
}

import { loaded } from "./clock";
import { apiReady } from "./api-clock";
import vscode = require("vscode");
import { approvalSettings, askByNotification, commandRules } from "./approval-settings";
import { registerChatCommands } from "./chat-commands";
import { ChatCheckpoints, registerChatRestore } from "./chat-checkpoints";
import { CheckpointReview, followCheckpoints } from "./checkpoint-review";
import { registerCheck } from "./check";
import { registerCommands } from "./commands";
import { registerCommitMessage } from "./commit";
import { registerExecute } from "./execute-api";
import {
  agentTools,
  openConversations,
  personKept,
  workspaceFolders,
  workspaceRoot,
  type Opened,
} from "./conversations";
import { VsCodeEditor } from "./vscode-editor";
import { editorFacts } from "./editor-facts";
import { Models } from "./models";
import { registerPanel } from "./panel";
import { registerParticipant } from "./participant";
import { PendingReview } from "./pending-review";
import { registerProvider } from "./provider";
import { registerQuickFix } from "./quickfix";
import { reportIgnoredSettings } from "./settings";
import { Status } from "./status";
import type { Store } from "../chat/store";
import { setBundle } from "../protocol/l10n";
import { logged } from "./failures";
import { promptReader } from "./prompt-folders";

/** When this bundle's code had loaded (VS Code may call `activate` a while later). */
const codeLoaded = performance.now();

/** What `deactivate` awaits: the conversations closed, their last writes on disk (set by `activate`). */
let closing: () => Promise<void> = async () => undefined;

/** Wires Tandem's parts into the editor. Nothing heavy is loaded here: parts load on first use. */
export function activate(context: vscode.ExtensionContext) {
  const called = performance.now();
  // Texts shown from the core and the panel are translated from VS Code's bundle for the display language.
  setBundle(vscode.l10n.bundle);
  const models = new Models(context.secrets, editorFacts(context.globalState));
  const status = new Status();
  // The agent's edits are pending changes the person reviews (unless they chose to be asked first).
  const pending = new PendingReview(context);
  const editor = new VsCodeEditor(context, pending);
  // The answers' checkpoints: restore to a message from the panel; a restore a crash cut short is offered.
  const checkpoints = new CheckpointReview(
    context,
    pending,
    (): boolean => (held.runner?.runningChats().length ?? 0) > 0 || chatCheckpoints.running,
  );
  // The Chat view's answers take theirs through the same review; a button or /restore restores them.
  const chatCheckpoints = new ChatCheckpoints(context.workspaceState, checkpoints);
  registerChatRestore(context, chatCheckpoints);
  context.subscriptions.push(status, pending, checkpoints);
  registerProvider(context, models);

  let opened: Promise<Opened> | undefined;
  /** How long opening the conversations took (ms), once they are open: a figure for tests and benchmarks. */
  let openedMs: number | undefined;
  const held: { runner?: Opened["runner"] } = {};
  const conversations = () =>
    (opened ??= timedOpen(context, {
      models,
      editor,
      status,
      checkpoint: (message) => checkpoints.checkpoint(message),
      running: (chat, running) => {
        panel.panel?.running(chat, running);
        // A run that ended with changes the person has not seen yet tells them, panel open or not.
        if (!running) void pending.notify();
      },
    }).then(({ o, ms }) => {
      openedMs = ms;
      held.runner = o.runner;
      followCheckpoints(context, o.store, checkpoints);
      return o;
    }));
  closing = async () => {
    if (!opened) return;
    // Conversations that could not open have nothing to close (their failure was shown when they were opened).
    const closed = opened.then((o) => o.close());
    logged("closing the conversations", closed);
    // Waited for whether it fails or not (a failure is logged above): the window's shutdown goes on either way.
    await Promise.allSettled([closed]);
  };
  const prompts = promptReader(context, () => pending.reviewed());
  const panel = registerPanel(context, {
    conversations,
    models,
    secrets: context.secrets,
    pending,
    checkpoints,
    person: personKept(context),
    prompts,
  });

  const participant = registerParticipant(context, {
    models,
    tools: () => agentTools(editor),
    // The same engine as the panel's runs judges each call; the person answers its question.
    approve: (question) => askByNotification(question),
    approvals: approvalSettings,
    commands: commandRules,
    root: workspaceRoot,
    folders: workspaceFolders,
    roots: workspaceFolders,
    pending: () => pending.reviewed(),
    checkpoints: chatCheckpoints,
    prompts,
  });
  const chat = registerChatCommands(context, panel, conversations);
  const execute = registerExecute(context, models);
  registerCheck(context, models);
  registerCommands(context, { models, ask: chat.ask, onModelChosen: (_id, name) => status.setModel(name) });
  registerQuickFix(context, chat.ask);
  registerCommitMessage(context, models);
  const showModel = () =>
    void models.defaultId().then(
      (id) => status.setModel(id),
      () => status.setModel(""),
    );
  // A repository's settings that try to choose endpoints, keys or approvals are ignored, and the person is told.
  const report = () => logged("reading the workspace's settings", reportIgnoredSettings());
  const watchSettings = () => {
    const settingsFiles = vscode.workspace.createFileSystemWatcher(
      "**/{.vscode/settings.json,*.code-workspace}",
    );
    context.subscriptions.push(
      settingsFiles,
      settingsFiles.onDidCreate(report),
      settingsFiles.onDidChange(report),
    );
    report();
  };
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration("tandem")) {
        models.refresh();
        panel.refreshChoices();
        showModel();
        report();
      }
    }),
  );
  // Conversations go on after a restart: the runner (and the model shown in the status bar) start a moment
  // after activation, and the workspace's settings are read then, so that activation itself does only what
  // the first screen needs.
  const later = setTimeout(() => {
    void conversations().catch((e: Error) =>
      vscode.window.showErrorMessage(vscode.l10n.t("Tandem: {0}", e.message)),
    );
    showModel();
    watchSettings();
  }, 1500);
  context.subscriptions.push({ dispose: () => clearTimeout(later) });

  // Tandem's own cost: loading its code, then the activate call. Making the `vscode` API object for an
  // extension is VS Code's cost, the same for every extension; it is reported apart.
  const vscodeApiMs = apiReady - loaded;
  const loadMs = codeLoaded - apiReady;
  const callMs = performance.now() - called;
  return {
    activationMs: loadMs + callMs,
    vscodeApiMs,
    /** The two parts of activationMs: loading this bundle's code, and the activate call. */
    loadMs,
    callMs,
    version: context.extension.packageJSON.version as string,
    participant: participant.id,
    /** Whether VS Code has asked for the side panel (tests and other extensions read it). */
    panelResolved: () => panel.view !== undefined,
    /** The conversations of this workspace, to read (for tests and other extensions): nothing here writes. */
    conversations: async () => ({ store: readOnly((await conversations()).store) }),
    /** How long the first opening of the conversations took, in ms (undefined until they are open). */
    conversationsOpenMs: () => openedMs,
    /** The folder of this workspace's conversation store; asking opens nothing. */
    storeFolder: () => (context.storageUri ?? context.globalStorageUri).fsPath,
    /** The tools Tandem's agent is offered in this workspace now (read-only ones when it is untrusted). */
    tools: async () => (await agentTools(editor)).map((t) => ({ name: t.name, readOnly: t.readOnly })),
    /** The conversations whose answer is running now (a restore waits until there is none). */
    running: async () => (await conversations()).runner.runningChats(),
    /** The files with pending changes (the agent's edits the person has not kept or undone yet). */
    pending: async () => (await pending.list()).map((f) => ({ ...f })),
    /** One step of the execute-agent API (`POST /v4/agents/execute`): its status and JSON body. */
    execute: (body: unknown, signal?: AbortSignal) => execute.execute(body, signal),
  };
}

/**
 * What other extensions may do with the conversations: read and follow them. The store's writes, the runner
 * and the secrets stay inside Tandem. `flush` writes nothing new: it waits until what is held is on disk.
 */
function readOnly(store: Store) {
  return {
    get: store.get.bind(store),
    rows: store.rows.bind(store),
    count: store.count.bind(store),
    items: store.items.bind(store),
    conversations: store.conversations.bind(store),
    loaded: store.loaded.bind(store),
    search: store.search.bind(store),
    follow: store.follow.bind(store),
    flush: () => (store.writable ? store.flush() : Promise.resolve()),
  };
}

/** Opens the conversations, timed. */
async function timedOpen(...args: Parameters<typeof openConversations>): Promise<{ o: Opened; ms: number }> {
  const started = performance.now();
  const o = await openConversations(...args);
  return { o, ms: performance.now() - started };
}

/** A closing window: the runs going on are marked interrupted and the store is written before the host ends. */
export function deactivate(): Promise<void> {
  return closing();
}

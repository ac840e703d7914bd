import type { PersonKept, PanelView, ViewHost, PanelContextHost } from "../chat/panel";
import type { PromptFiles } from "../chat/assistants";
import { randomBytes } from "node:crypto";
import { basename } from "node:path";
import vscode = require("vscode");
import { fileRef, type FileRef } from "../protocol/file-refs";
import type { HostMessage, PendingFile } from "../protocol/messages";
import type { Opened } from "./conversations";
import { repositoryAssistants, workspaceRoot } from "./conversations";
import { settings } from "./settings";
import { panelHtml } from "./panel-page";
import { currentBundle } from "../protocol/l10n";
import type { Models } from "./models";
import { core } from "./core";
import { logged, shown } from "./failures";
import type { PendingReview } from "./pending-review";
import type { CheckpointReview } from "./checkpoint-review";
import { editorContext } from "./editor-context";
import { reason } from "../protocol/reason";

/** What the panel reaches: the conversations (opened on first use) and the models. */
export interface PanelParts {
  conversations: () => Promise<Opened>;
  models: Models;
  secrets: vscode.SecretStorage;
  /** The agent's pending changes, listed in the panel's bar. */
  pending?: PendingReview;
  /** The answers' checkpoints: restore to a message, changes since. */
  checkpoints?: CheckpointReview;
  /** The person's own assistants for every workspace. */
  person?: PersonKept;
  /** The prompt files the person can start with `/name`. */
  prompts?: () => Promise<PromptFiles>;
  /** The folder (in the extension's storage) where plans are written to be edited. */
  plans?: string;
}

/** Workspace files as the person picks them in a quick pick (several at once). */
export async function pickWorkspaceFiles(title: string): Promise<FileRef[]> {
  const uris = await vscode.workspace.findFiles("**/*", undefined, 5000);
  const items = uris
    .map((uri) => ({ label: vscode.workspace.asRelativePath(uri), uri }))
    .sort((a, b) => a.label.localeCompare(b.label));
  const picked = await vscode.window.showQuickPick(items, {
    title,
    canPickMany: true,
    matchOnDescription: true,
  });
  return (picked ?? []).map((p) => fileRef(p.label, basename(p.uri.fsPath)));
}

/** Dropped URIs or paths, as workspace files (anything outside the workspace is left out). */
function droppedFiles(uris: string[]): FileRef[] {
  const root = workspaceRoot();
  const out: FileRef[] = [];
  for (const text of uris) {
    const uri = /^[a-z][a-z0-9+.-]*:/i.test(text)
      ? vscode.Uri.parse(text)
      : root
        ? vscode.Uri.file(`${root}/${text}`)
        : undefined;
    if (!uri || uri.scheme !== "file") continue;
    // With several folders a path starts with its folder's name, as the tools and the picker name it.
    const several = (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
    const shown = vscode.workspace.asRelativePath(uri, several);
    if (shown === uri.fsPath) continue;
    out.push(fileRef(shown, basename(uri.fsPath)));
  }
  return out;
}

/** What a code block's buttons do. */
async function codeAction(action: "copy" | "insert" | "new-file", code: string, language: string) {
  if (action === "copy") {
    await vscode.env.clipboard.writeText(code);
    vscode.window.setStatusBarMessage(vscode.l10n.t("Copied"), 2000);
  } else if (action === "insert") {
    const editor = vscode.window.activeTextEditor ?? vscode.window.visibleTextEditors[0];
    if (!editor) {
      vscode.window.showInformationMessage(vscode.l10n.t("Open a file to insert the code into."));
      return;
    }
    await editor.edit((edit) => edit.replace(editor.selection, code));
  } else {
    const document = await vscode.workspace.openTextDocument({
      content: code,
      language: language || undefined,
    });
    await vscode.window.showTextDocument(document);
  }
}

/**
 * Opens a file the panel names ("go to file"): the path may come from a plugin's output, so only a
 * regular file inside a workspace folder (real path) is opened; anything else is refused, said.
 */
async function openInWorkspace(path: string): Promise<void> {
  const folders = (vscode.workspace.workspaceFolders ?? [])
    .filter((f) => f.uri.scheme === "file")
    .map((f) => ({ root: f.uri.fsPath, name: f.name }));
  let file: string;
  try {
    file = await core().fileInFolders(folders, path);
  } catch (error) {
    const why = reason(error);
    void vscode.window.showWarningMessage(vscode.l10n.t("Tandem did not open that file: {0}", why));
    return;
  }
  await vscode.window.showTextDocument(vscode.Uri.file(file));
}

/** The side-panel chat: a webview view whose page is built by `panelHtml` under a strict CSP. */
export class PanelProvider implements vscode.WebviewViewProvider {
  static readonly viewType = "tandem.chatView";
  view?: vscode.WebviewView;
  panel?: PanelView;
  private readonly waiting: Array<(view: PanelView) => void> = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly parts: PanelParts,
    private readonly context?: PanelContextHost,
  ) {}

  async resolveWebviewView(view: vscode.WebviewView) {
    this.view = view;
    const dist = vscode.Uri.joinPath(this.extensionUri, "dist");
    view.webview.options = {
      enableScripts: true,
      enableCommandUris: ["tandem.setApiKey", "workbench.action.openSettings"],
      localResourceRoots: [dist, vscode.Uri.joinPath(this.extensionUri, "media")],
    };
    const uri = (file: string) => view.webview.asWebviewUri(vscode.Uri.joinPath(dist, file)).toString();
    view.webview.html = panelHtml({
      cspSource: view.webview.cspSource,
      nonce: randomBytes(18).toString("base64"),
      scriptUri: uri("webview.js"),
      styleUri: uri("webview.css"),
      codiconUri: uri("codicon.css"),
      title: "Tandem",
      language: vscode.env.language,
      bundle: currentBundle(),
    });
    // Messages that arrive while the conversations open are handled once they are.
    const early: unknown[] = [];
    const pending = this.parts.pending;
    const postPending = (files: PendingFile[]) => {
      const message: HostMessage = { type: "pending", files };
      logged("sending the pending changes to the panel", view.webview.postMessage(message));
    };
    const followPending = pending?.onChange(postPending);
    const listener = view.webview.onDidReceiveMessage((m: unknown) => {
      // A panel that (re)loads gets the pending list with its snapshot.
      if (pending && m !== null && typeof m === "object" && (m as { type?: unknown }).type === "ready")
        logged("listing the pending changes", pending.list().then(postPending));
      if (this.panel) logged("handling a panel message", this.panel.receive(m));
      else early.push(m);
    });
    view.onDidDispose(() => {
      followPending?.dispose();
      listener.dispose();
      this.panel?.dispose();
      this.panel = undefined;
      this.view = undefined;
    });
    const { store, runner } = await this.parts.conversations();
    const { PanelView } = core();
    if (this.view !== view) return;
    const panel = new PanelView(store, runner, this.host(view));
    this.panel = panel;
    for (const m of early.splice(0)) await panel.receive(m);
    for (const resolve of this.waiting.splice(0)) resolve(panel);
  }

  /** Tells an open panel the model choices again (the person's endpoints changed). */
  refreshChoices(): void {
    if (this.panel) logged("listing the model choices again", this.panel.refreshChoices());
  }

  /** The panel's host half once the view is shown (it opens the view if needed). */
  async ready(): Promise<PanelView> {
    if (this.panel) return this.panel;
    const shown = new Promise<PanelView>((resolve) => this.waiting.push(resolve));
    await vscode.commands.executeCommand(`${PanelProvider.viewType}.focus`);
    return shown;
  }

  private host(view: vscode.WebviewView): ViewHost {
    const { models, secrets, checkpoints } = this.parts;
    const plans = this.parts.plans;
    return {
      // Plans are kept in the extension's storage, never the workspace, and opened as Markdown.
      ...(plans && {
        plans: core().planFiles(plans, async (file) => {
          await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: false });
        }),
      }),
      ...(checkpoints && {
        restoreFilesTo: (message, ask) => checkpoints.restorer.filesTo(message, ask),
        changesSince: (message) => checkpoints.restorer.changesSince(message),
      }),
      send: (message: HostMessage) => logged("sending to the panel", view.webview.postMessage(message)),
      assistants: async () => repositoryAssistants((await this.parts.pending?.reviewed()) ?? []),
      localOnly: () => settings().localOnly,
      person: this.parts.person,
      prompts: this.parts.prompts,
      choices: () => models.choices(),
      defaultModel: () => models.defaultId(),
      pickFiles: () => pickWorkspaceFiles(vscode.l10n.t("Attach files to your message")),
      dropped: async (uris) => droppedFiles(uris),
      code: (action, code, language) =>
        shown(vscode.l10n.t("The code block's action ({0})", action), codeAction(action, code, language)),
      openLink: (url) => {
        if (/^(https?|mailto):/i.test(url))
          shown(vscode.l10n.t("Opening the link"), vscode.env.openExternal(vscode.Uri.parse(url)));
      },
      openFile: (path) => shown(vscode.l10n.t("Opening the file"), openInWorkspace(path)),
      command: (command) => {
        if (command === "setApiKey")
          shown(vscode.l10n.t("Setting the API key"), vscode.commands.executeCommand("tandem.setApiKey"));
        else
          shown(
            "Opening the settings",
            vscode.commands.executeCommand("workbench.action.openSettings", "tandem"),
          );
      },
      pluginKey: async (id, key) => {
        const { secretKey } = core();
        if (key) await secrets.store(secretKey(id), key);
        else await secrets.delete(secretKey(id));
      },
      pending: (action, path) =>
        shown(
          `The pending change's ${action}`,
          vscode.commands.executeCommand(
            action === "review" ? "tandem.pending.review" : `tandem.pending.${action}`,
            path || undefined,
          ),
        ),
      refused: (why) => console.warn(`Tandem: a panel message was refused: ${why}`),
      context: this.context,
    };
  }
}

export function registerPanel(context: vscode.ExtensionContext, parts: PanelParts) {
  const plans = vscode.Uri.joinPath(context.globalStorageUri, "plans").fsPath;
  const provider = new PanelProvider(
    context.extensionUri,
    { plans, ...parts },
    {
      editor: editorContext(context),
      folder: (context.storageUri ?? context.globalStorageUri).fsPath,
    },
  );
  context.subscriptions.push(
    vscode.window.registerWebviewViewProvider(PanelProvider.viewType, provider, {
      webviewOptions: { retainContextWhenHidden: false },
    }),
  );
  return provider;
}

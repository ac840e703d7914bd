import { resolve } from "node:path";
import vscode = require("vscode");
import type { PendingList } from "../chat/pending";
import type { Call, Limit, LimitCall, Message, Model, Piece, Tool } from "../agent/types";
import type { Decision, Question, Setting, Allowance } from "../chat/approval";
import type { CommandRuleBook } from "../chat/workspace";
import { argText } from "../protocol/args";
import { editorModel, Models, VENDOR } from "./models";
import { settings } from "./settings";
import { core } from "./core";
import { chatReferences } from "./chat-references";
import { newKey } from "../chat/make";
import { RESTORE_CHAT_MESSAGE, restoreInChat, sessionIn, type ChatCheckpoints } from "./chat-checkpoints";
import { reason } from "../protocol/reason";
import type { PromptFiles, PromptUse } from "../chat/assistants";
import { chatDelegate } from "./chat-subagents";

/** What the participant needs from the rest of Tandem. */
export interface ParticipantParts {
  models: Models;
  /** The workspace tools offered to the agent (read-only ones in an untrusted workspace). */
  tools: () => Promise<Tool[]>;
  /** Asks the person the engine's question about a call (undefined: nobody answered). */
  approve: (question: Question) => Promise<Decision | undefined>;
  /** The person's per-tool approval settings. */
  approvals: () => Readonly<Record<string, Setting>>;
  /** The workspace folder, where protected paths are looked for. */
  root: () => string | undefined;
  /** Every folder of the workspace with its name: a path is guarded in the folder it names. */
  folders?: () => { root: string; name: string }[];
  /** The person's command rules for run_command. */
  commands?: CommandRuleBook;
  /** Every workspace folder, whose project instructions (AGENTS.md…) the model is given. */
  roots?: () => { root: string; name: string }[];
  /** The agent's pending changes: an instruction file among them is read as the person reviewed it. */
  pending?: () => Promise<PendingList>;
  /** The answers' checkpoints (none: answers take none and cannot be restored). */
  checkpoints?: ChatCheckpoints;
  /** The prompt files the person can start with `/name` (none: `/name` is sent as written). */
  prompts?: () => Promise<PromptFiles>;
}

/**
 * The history of VS Code's Chat view as core messages (only this participant's turns are given);
 * what came before a `/compact` is given as the summary it made.
 */
export function historyOf(context: vscode.ChatContext): Message[] {
  let out: Message[] = [];
  let summary = "";
  for (const turn of context.history) {
    if (turn instanceof vscode.ChatRequestTurn) {
      if (turn.command !== "compact") out.push({ role: "user", text: turn.prompt });
    } else if (turn instanceof vscode.ChatResponseTurn && typeof turn.result.metadata?.summary === "string") {
      summary = turn.result.metadata.summary;
      out = [];
    } else if (turn instanceof vscode.ChatResponseTurn) {
      const text = turn.response
        .map((part) => (part instanceof vscode.ChatResponseMarkdownPart ? part.value.value : ""))
        .join("");
      if (text) out.push({ role: "assistant", text });
    }
  }
  return summary ? core().withSummary(summary, out) : out;
}

/** `/compact`: summarises the conversation so far; the summary goes back with the result, for `historyOf`. */
async function compactChat(
  model: Model,
  chat: vscode.ChatContext,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
): Promise<vscode.ChatResult> {
  const a = core().agent(model, core().wordsOf(core().FALLBACK_ASSISTANT, Date.now()).full);
  a.history = historyOf(chat);
  const abort = new AbortController();
  token.onCancellationRequested(() => abort.abort());
  let made;
  try {
    made = await core().compact(a, abort.signal);
  } catch (error) {
    // A failure is said as one (it read as "nothing to condense" before); a stop says nothing.
    if (abort.signal.aborted) return {};
    return { errorDetails: { message: vscode.l10n.t("Condensing failed: {0}", reason(error)) } };
  }
  if (!made) {
    stream.markdown(vscode.l10n.t("There is nothing to condense yet."));
    return {};
  }
  stream.markdown(
    `${vscode.l10n.t("Earlier turns were summarised for the model; this view keeps them all. From now on Tandem sends the model this summary:")}\n\n${made.text
      .split("\n")
      .map((line) => `> ${line}`)
      .join("\n")}`,
  );
  return { metadata: { summary: made.text } };
}

/**
 * What the person allowed with "Always allow" earlier in this Chat view conversation: VS Code
 * keeps no state of ours per conversation, so each answer carries it in its metadata.
 */
function allowanceIn(context: vscode.ChatContext): Allowance {
  for (const turn of [...context.history].reverse()) {
    if (turn instanceof vscode.ChatResponseTurn && turn.result.metadata?.allowed) {
      return core().allowanceOf(turn.result.metadata.allowed);
    }
  }
  return core().allowanceOf(undefined);
}

/**
 * The tools and groups the model opened (`open_tools`) earlier in this Chat view conversation,
 * carried by each answer's metadata as "Always allow" is, so a group opened once stays offered.
 */
function openedIn(context: vscode.ChatContext): string[] {
  for (const turn of [...context.history].reverse()) {
    const opened: unknown =
      turn instanceof vscode.ChatResponseTurn ? turn.result.metadata?.opened : undefined;
    if (Array.isArray(opened)) return opened.filter((name): name is string => typeof name === "string");
  }
  return [];
}

/** The person's own words in this conversation: a URL they named counts as their yes to its host. */
function saidIn(context: vscode.ChatContext, prompt: string): string[] {
  const said = context.history
    .filter((turn) => turn instanceof vscode.ChatRequestTurn)
    .map((turn) => turn.prompt);
  return [...said, prompt];
}

/** The prompt a slash command asks for. */
function promptOf(request: vscode.ChatRequest): string {
  if (request.command === "explain") {
    const editor = vscode.window.activeTextEditor;
    const target = editor
      ? editor.selection.isEmpty
        ? `the file ${vscode.workspace.asRelativePath(editor.document.uri)}`
        : `this selection from ${vscode.workspace.asRelativePath(editor.document.uri)}:\n\`\`\`${editor.document.languageId}\n${editor.document.getText(editor.selection)}\n\`\`\``
      : "the code I am looking at";
    return `Explain ${target}. ${request.prompt}`.trim();
  }
  if (request.command === "plan") {
    return `Make a step-by-step plan for the following, as a Markdown checklist. Read what you need, but change nothing yet.\n\n${request.prompt}`;
  }
  return request.prompt;
}

/**
 * The prompt file a request starts (`/name args`, a name the participant does not have itself), what
 * it gives the answer, and the person's model it chose; what it asked for and did not get is said.
 */
async function startPrompt(
  parts: ParticipantParts,
  request: vscode.ChatRequest,
  stream: vscode.ChatResponseStream,
): Promise<{ use: PromptUse; chosen?: Model; file: string } | undefined> {
  const command = request.command ? undefined : core().slashCommand(request.prompt);
  if (!command || !parts.prompts) return undefined;
  const prompt = core().promptNamed((await parts.prompts()).prompts, command.name);
  if (!prompt) return undefined;
  const editor = vscode.window.activeTextEditor;
  const use = core().usePrompt(prompt, command.args, await parts.models.choices(), {
    workspaceFolder: parts.root(),
    file: editor?.document.uri.scheme === "file" ? editor.document.uri.fsPath : undefined,
    selection: editor && !editor.selection.isEmpty ? editor.document.getText(editor.selection) : undefined,
  });
  stream.progress(vscode.l10n.t("Starting the prompt file {0}…", `/${prompt.name}`));
  for (const note of use.notes)
    stream.markdown(new vscode.MarkdownString("\n\n> ").appendText(note).appendMarkdown("\n\n"));
  const chosen = use.model ? await parts.models.resolve(use.model) : undefined;
  return { use, chosen, file: prompt.file };
}

/** The core model for the model selected in the Chat view (Tandem's own resolve to the endpoint directly). */
async function modelOf(
  parts: ParticipantParts,
  chosen: vscode.LanguageModelChat | undefined,
): Promise<Model | undefined> {
  if (chosen?.vendor === VENDOR) return parts.models.resolve(chosen.id);
  if (chosen) return editorModel(chosen);
  return parts.models.resolve("");
}

/** What a finished call points at: the workspace file it read, the pages it fetched. */
function pointedAt(call: Call, output: string): vscode.Uri[] {
  const out: vscode.Uri[] = [];
  const folders = (vscode.workspace.workspaceFolders ?? [])
    .filter((f) => f.uri.scheme === "file")
    .map((f) => ({ root: f.uri.fsPath, name: f.name }));
  if (folders.length && (call.name === "read_file" || call.name === "open_file")) {
    const path = argText(call.arguments, "path");
    // With several folders the path starts with its folder's name, as the tools name it.
    const at = path ? core().placesOf(core().nameFolders(folders), path)[0] : undefined;
    if (at) out.push(vscode.Uri.file(resolve(at.folder.root, at.path)));
  }
  // The rule of the panel's source chips (from the core's bundle: it reads addresses with ipaddr.js).
  const { publicPage, sourcesIn } = core();
  for (const source of sourcesIn(output)) {
    const page = publicPage(source.url);
    if (page) out.push(vscode.Uri.parse(page.href));
  }
  return out;
}

/** Streams a run's pieces into the Chat view's response. */
function show(stream: vscode.ChatResponseStream, piece: Piece) {
  switch (piece.kind) {
    case "text":
      stream.markdown(piece.text);
      break;
    case "reasoning":
      break;
    case "note":
      stream.markdown(`\n\n_${piece.text}_\n\n`);
      break;
    case "call":
      stream.progress(vscode.l10n.t("Running {0}…", piece.call.name));
      break;
    case "result":
      for (const uri of pointedAt(piece.call, piece.text)) stream.reference(uri);
      break;
    case "failed":
      stream.markdown(
        `\n\n> ${vscode.l10n.t("{0} failed: {1}", piece.call.name, piece.text.split("\n")[0])}\n\n`,
      );
      break;
    case "done":
    case "stopped":
      // Which limit ended the run is said once, from the handler, with Continue as a follow-up.
      break;
    case "error":
      stream.markdown(`\n\n**${vscode.l10n.t("Error")}:** ${piece.text}`);
      break;
    default:
      break;
  }
}

/** The @tandem participant in VS Code's Chat view, answering with the agent core. */
export function registerParticipant(context: vscode.ExtensionContext, parts: ParticipantParts) {
  // Images attached in the Chat view are kept here, as the panel keeps pasted ones.
  const storage = (context.storageUri ?? context.globalStorageUri).fsPath;
  const handler: vscode.ChatRequestHandler = async (request, chat, stream, token) => {
    if (request.command === "new") {
      stream.markdown(vscode.l10n.t("Starting a new conversation."));
      stream.button({ command: "workbench.action.chat.newChat", title: vscode.l10n.t("New Chat") });
      return {};
    }
    if (request.command === "model") {
      const choices = await parts.models.choices();
      stream.markdown(
        choices.length
          ? `${vscode.l10n.t("Models Tandem can use:")}\n\n${choices.map((c) => `- \`${c.id}\` — ${c.name} (${c.group})`).join("\n")}`
          : vscode.l10n.t("No model is configured yet."),
      );
      stream.button({ command: "tandem.selectModel", title: vscode.l10n.t("Select Model") });
      return {};
    }
    // Restoring needs no model.
    if (request.command === "restore") return restoreInChat(parts.checkpoints, sessionIn(chat), stream);
    const model = await modelOf(parts, request.model);
    if (!model) {
      stream.markdown(
        vscode.l10n.t(
          "No model is configured yet. Add an endpoint under **Settings › Tandem › Endpoints**, or set `AI_URL` and `AI_MODEL` before starting VS Code.",
        ),
      );
      stream.button({
        command: "workbench.action.openSettings",
        title: vscode.l10n.t("Open Settings"),
        arguments: ["tandem.endpoints"],
      });
      return { metadata: { configured: false } };
    }
    if (request.command === "compact") return compactChat(model, chat, stream, token);
    const ended = parts.checkpoints?.started();
    try {
      return await answer(request, chat, stream, token, model);
    } finally {
      ended?.();
    }
  };
  /** Answers one request with the agent; its result carries the session's key and its checkpoint. */
  const answer = async (
    request: vscode.ChatRequest,
    chat: vscode.ChatContext,
    stream: vscode.ChatResponseStream,
    token: vscode.CancellationToken,
    model: Model,
  ): Promise<vscode.ChatResult> => {
    const session = sessionIn(chat);
    const limits = settings();
    const started = await startPrompt(parts, request, stream);
    if (started?.chosen) model = started.chosen;
    // `/plan` is Plan mode: only the tools that read are offered, whatever the model is told.
    const plan = request.command === "plan";
    const allowed = allowanceIn(chat);
    const a = core().agent(model);
    a.history = historyOf(chat);
    // One checkpoint per answer, by the panel's rule: before its first approved call that may write.
    const message = core().messageOf({ chat: session, id: newKey(), text: request.prompt });
    const checkpoints = limits.checkpoints.enabled ? parts.checkpoints : undefined;
    let restorable = false;
    // An answer that took a checkpoint ends with the way back, and says which it was in its result.
    const restore = () => {
      if (!restorable) return {};
      const named = { chat: message.chat, id: message.id };
      stream.button({
        command: RESTORE_CHAT_MESSAGE,
        title: vscode.l10n.t("Restore files to before this message"),
        arguments: [named],
      });
      return { checkpoint: named };
    };
    const abort = new AbortController();
    token.onCancellationRequested(() => abort.abort());
    // `#file`, `#selection`, `#sym`, folders and pasted images: each as the model should receive it.
    // VS Code attaches a prompt file it knows as a reference too: the started one is given once, filled in.
    const references = request.references.filter(
      (ref) => !(started && ref.value instanceof vscode.Uri && ref.value.fsPath === started.file),
    );
    const { files, notes, used } = await chatReferences({ references }, storage);
    for (const uri of used) stream.reference(uri);
    const earlier = openedIn(chat);
    // The run as the panel's runs are prepared: the same rules, tools, instructions and fitting.
    const prepared = await core().prepareChatViewRun(
      a,
      {
        tools: () => parts.tools(),
        chosenTools: () => limits.chosenTools,
        approvals: () => parts.approvals(),
        commands: parts.commands,
        root: parts.root,
        folders: parts.folders,
        roots: parts.roots,
        pendingChanges: parts.pending,
        trusted: () => vscode.workspace.isTrusted,
        limits: { rounds: limits.rounds, maxTokens: limits.maxTokens, maxMs: limits.maxMs },
      },
      {
        // The project's instructions (AGENTS.md…) scoped to the files the request attaches.
        inPlay: used.filter((uri) => uri.scheme === "file").map((uri) => uri.fsPath),
        opened: earlier,
        said: saidIn(chat, request.prompt),
        // "Always allow" lasts for this conversation.
        allowed,
        ask: parts.approve,
        // A prompt file the request started may only narrow the tools.
        narrowing: started?.use,
        mode: plan ? "plan" : undefined,
        // Read-only subagents (chat-subagents.ts): their progress and reports show in this response.
        delegate: (reading) =>
          chatDelegate({
            models: parts.models,
            model,
            tools: reading,
            limits: { rounds: limits.rounds, maxTokens: limits.maxTokens, maxMs: limits.maxMs },
            agent: a,
            stream,
          }),
        checkpoint: checkpoints && (() => checkpoints.take(message).then(() => void (restorable = true))),
        failed: (error) =>
          stream.markdown(
            `\n\n> ${vscode.l10n.t("The files were not recorded before this answer changed them, so it cannot be restored: {0}", reason(error))}\n\n`,
          ),
      },
    );
    // Each project file given is shown as a reference of the answer.
    const shown = new Set(used.map((uri) => uri.toString()));
    for (const file of prepared.project?.files ?? []) {
      const uri = file.file ? vscode.Uri.file(file.file) : undefined;
      if (uri && !shown.has(uri.toString())) stream.reference(uri);
      if (uri) shown.add(uri.toString());
    }
    // What the next request of this conversation keeps: "always" and the groups the model opened.
    const results: { name: string; output: string }[] = [];
    const kept = () => ({
      allowed: { tools: [...allowed.tools], hosts: [...allowed.hosts] },
      opened: core().openedAfter(earlier, results),
    });
    const prompt = [started?.use.text ?? promptOf(request), ...notes].join("\n\n");
    let limit: Limit | undefined;
    let at: LimitCall | undefined;
    const each = (piece: Piece): void => {
      if (piece.kind === "done" || piece.kind === "stopped") limit = piece.limit;
      if (piece.kind === "stopped") at = piece.call;
      if (piece.kind === "result") results.push({ name: piece.call.name, output: piece.text });
      show(stream, piece);
    };
    // A prompt the model server cut without a word is said where it happened, with the fix.
    core().sayCuts(a, (notice) =>
      stream.markdown(new vscode.MarkdownString("\n\n> ⚠️ ").appendText(notice).appendMarkdown("\n\n")),
    );
    try {
      await core().run(a, prompt, { each, files, signal: abort.signal });
    } catch {
      // The error piece has already been shown.
      return {
        errorDetails: { message: vscode.l10n.t("The run failed.") },
        metadata: { ...kept(), session, ...restore() },
      };
    }
    if (limit) stream.markdown(`\n\n_${core().limitNote(limit, a, at)}_`);
    return {
      metadata: {
        model: model.name,
        ...kept(),
        session,
        ...restore(),
        ...(limit ? { limit } : {}),
        ...(plan ? { plan: true } : {}),
      },
    };
  };
  const participant = vscode.chat.createChatParticipant("tandem.chat", handler);
  participant.iconPath = vscode.Uri.joinPath(context.extensionUri, "media", "tandem.svg");
  participant.followupProvider = {
    provideFollowups: (result) =>
      result.metadata?.limit
        ? [{ prompt: core().CONTINUE, label: vscode.l10n.t("Continue") }]
        : result.metadata?.plan
          ? [
              {
                // The plan is the answer above, in the history; what it changes is asked as usual.
                prompt: vscode.l10n.t("Act on the plan above: make the changes it lists, step by step."),
                label: vscode.l10n.t("Act on this plan"),
              },
            ]
          : result.metadata?.model
            ? [
                {
                  prompt: vscode.l10n.t("Explain that in more detail"),
                  label: vscode.l10n.t("Explain more"),
                },
                { prompt: vscode.l10n.t("What should I do next?"), label: vscode.l10n.t("Next steps") },
              ]
            : [],
  };
  context.subscriptions.push(participant);
  return participant;
}

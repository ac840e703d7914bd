/**
 * One run: the agent of the conversation (its instructions with the memories and the plan, its
 * model, the tools it allows with approval for those it lists) answers one message with the
 * conversation as its history, and every piece is written as items while it comes.
 */
import { agent } from "../../agent/agent";
import { title, shorten } from "../../agent/ask";
import { attach, documentsOf, type Attached } from "../../agent/attachments";
import { reason } from "../../agent/perform";
import { run } from "../../agent/run";
import type { Attachment, Message, Model } from "../../agent/types";
import {
  asRepository,
  REPOSITORY,
  personAssistant,
  type Instructions,
  inPlayOf,
  notesOf,
} from "../assistants";
import type { Allowance } from "../approval";
import type { Assistant, Item } from "../row-schemas";
import { approval, type Waiting } from "./approve";
import type { RunnerHost } from "./runner-host";
import { condensingOf } from "../../agent/condense-turn";
import { compactNow, isCompact, marking, resume, storedCompact, withoutCommands, type Kept } from "./summary";
import type { FileRef } from "../../protocol/file-refs";
import { historyBefore, type Work } from "./history";
import { Answer, answerKey, CALL_INTERRUPTED, INTERRUPTED, nextIndex } from "./answer-items";
import { Tally } from "./usage";
import { noticing } from "./window-notice";
import type { Store } from "../store";
import { chatTools, memoriesOf, planOf } from "./chat-tools";
import { openedBy } from "./fit";
import { FALLBACK_ASSISTANT, prepareRun } from "./prepare";
import { answerDelegates } from "./delegate-answer";
import { t } from "../../protocol/l10n";

/** What every run of one runner shares. */
export interface Runs {
  store: Store;
  host: RunnerHost;
  /** What the person allowed for the conversation `chat` ("always"): tools, and hosts to fetch from. */
  allowed(chat: string): Allowance;
  /** The calls waiting for the person, each settled by the first answer. */
  waiting: Waiting;
  /** What the files of an earlier message add (kept, so a document is not read at every run). */
  given(user: Item): Promise<Attached>;
  /** True while the runner closes: a run ended by it is marked interrupted, not stopped. */
  closing(): boolean;
  /** Each conversation's latest summary, taken up by its next run while the history it covers is the same. */
  summaries: Map<string, Kept>;
  /** The person's messages sent to join the run of `chat` since it last asked, taken by it (see `Runner.steer`). */
  steered?(chat: string): Item[];
}

/** What is left to do once a run has ended, outside it (naming the conversation); given the runner's closing signal. */
export type After = (signal: AbortSignal) => Promise<void>;

/** The assistant of the conversation with `agent`: its own, else the first, else a plain one. */
export function assistantOf(store: Store, agent: string): Assistant {
  return (
    (agent ? store.get("assistants", agent) : undefined) ?? store.rows("assistants")[0] ?? FALLBACK_ASSISTANT
  );
}

/** The repository's assistant `agent` names (not one the person saved under its id), if its file is still there. */
async function repositoryAssistant(runs: Runs, agent: string): Promise<Assistant | undefined> {
  if (!agent.startsWith(REPOSITORY) || runs.store.get("assistants", agent) || !runs.host.assistants)
    return undefined;
  try {
    return (await runs.host.assistants()).find((a) => a.id === agent);
  } catch {
    return undefined;
  }
}

/** The model's id a piece of work asks: the retry's, else the message's, else the assistant's ("" the default). */
export function modelIdOf(work: Work, assistant: Assistant): string {
  return (work.item.kind === "retry" ? work.item.model : "") || work.user.model || assistant.model || "";
}

/** The attachments of a message's files, through the editor; throws "Cannot read NAME: why". */
async function attachmentsOf(host: RunnerHost, files: readonly FileRef[]): Promise<Attachment[]> {
  const out: Attachment[] = [];
  for (const ref of files) {
    try {
      out.push(
        host.files ? await host.files(ref.path, ref.name) : { name: ref.name, type: "", path: ref.path },
      );
    } catch (error) {
      throw new Error(t("Cannot read {0}: {1}", ref.name, reason(error)));
    }
  }
  return out;
}

/** What the files of an earlier message add to it, each file on its own (one gone leaves a note). */
export async function givenBy(host: RunnerHost, user: Item): Promise<Attached> {
  const out: Attached = { text: "", images: [], documents: [] };
  for (const ref of user.files) {
    try {
      const file = host.files
        ? await host.files(ref.path, ref.name)
        : { name: ref.name, type: "", path: ref.path };
      const given = await attach([file]);
      out.text += given.text;
      out.images.push(...given.images);
      out.documents.push(...given.documents);
    } catch (error) {
      out.text += `\n\n[${ref.name} was attached but can no longer be read: ${reason(error)}]`;
    }
  }
  return out;
}

/** The first user item of `items`. */
function firstMessage(items: readonly Item[]): Item | undefined {
  return items.find((i) => i.kind === "user");
}

/**
 * Answers one piece of work, writing its items; `halt` ends it (a stop, or the runner closing).
 * Marks the work's item done at the end, whatever happened, and gives what is left to do after the
 * run (its title), for the runner to do once it has said the run ended.
 */
export async function answer(runs: Runs, work: Work, halt: AbortController): Promise<After | undefined> {
  const { store, host } = runs;
  const chat = work.item.chat;
  const conversation = store.get("conversations", chat);
  const repo = await repositoryAssistant(runs, conversation?.agent ?? "");
  const person =
    (await personAssistant(conversation?.agent ?? "", host.personAssistants?.bind(host))) ??
    assistantOf(store, conversation?.agent ?? "");
  // A repository's assistant runs as the person's, with its words and at most the tools it lists.
  const assistant = repo ? asRepository(person, repo) : person;
  const modelId = modelIdOf(work, assistant);
  const firstKey = answerKey(work.item.id, nextIndex(store.items(chat), work.item.id));
  const written = new Answer(store, chat, work.item.id, modelId);
  let project: Instructions | undefined;
  const compacting = isCompact(work.user);
  // A retry of the first message answers it too: a first answer that failed or was stopped is named then.
  const first = !compacting && firstMessage(store.items(chat))?.id === work.user.id;
  const firstWords = shorten(work.user.text);
  if (first && conversation && !conversation.title.trim() && firstWords) {
    store.put("conversations", { ...conversation, title: firstWords });
  }
  let ended = "error" as "done" | "stopped" | "error";
  let model: Model | undefined;
  let tally: Tally | undefined;
  try {
    try {
      model = await host.model(modelId);
    } catch (error) {
      written.error(t("The model {0} could not be reached: {1}", modelId || t("(default)"), reason(error)));
      return;
    }
    if (!model) {
      written.error(
        modelId
          ? t("The model {0} is not available. Choose another model, then retry.", modelId)
          : t("No model is set up. Configure an endpoint or choose a model, then retry."),
      );
      return;
    }
    const items = store.items(chat);
    const counting = new Tally(store, chat);
    const chosen = model;
    tally = counting;
    const a = agent(tally.counted(model));
    const given = async (user: Item): Promise<Attached> => {
      const given = await runs.given(user);
      documentsOf(a).push(...given.documents);
      return given;
    };
    a.history = withoutCommands(await historyBefore(items, work.user, given));
    // The model's view is condensed as the run goes; the stored items keep everything. A summary
    // made earlier is taken up: the one kept in memory, else (after a restart) the last /compact's.
    const stored = runs.summaries.has(chat)
      ? undefined
      : await storedCompact(
          items,
          work.user,
          // Counted with the files' texts only: their documents are already the run's.
          async (compact) =>
            withoutCommands(await historyBefore(items, compact, (user) => runs.given(user))).length,
        );
    if (stored) condensingOf(a).summary = stored;
    resume(a, runs.summaries.get(chat));
    // A model that cannot say its window is taken to have the one its last turn here reported.
    if (!model.window) a.window = store.get("contexts", chat)?.window ?? 0;
    marking(a, written, tally, (kept) => runs.summaries.set(chat, kept));
    noticing(a, written);
    const memories = memoriesOf(store, assistant.id).map((m) => m.text);
    const skills = [...store.rows("skills"), ...((await host.skills?.()) ?? [])];
    const own = chatTools({
      store,
      agent: assistant.id,
      chat,
      makePlan: (text) => written.make("plan", text),
      skills,
      now: host.now,
    });
    const take = host.checkpoint?.bind(host);
    const prepared = await prepareRun(a, host, {
      assistant,
      repo,
      own,
      memories,
      plan: planOf(items)?.text ?? "",
      // The conversation's own switch: off, the repository's files are not read.
      inPlay: conversation?.instructions !== false ? inPlayOf(items) : undefined,
      opened: openedBy(items.filter((i) => i.kind === "call")),
      said: items.filter((i) => i.kind === "user").map((i) => i.text),
      allowed: runs.allowed(chat),
      decide: ({ tools, rules }) => approval(runs, written, [...tools], rules, halt.signal),
      // The chat's own tools write only the store: the checkpoint waits for a call that may change the workspace.
      checkpoint: take && (() => take(work.user)),
      failed: (error) => host.problem?.(`The files were not recorded: ${reason(error)}`),
      narrowing: work.user.prompt,
      mode: conversation?.mode,
      delegate: (reading) =>
        answerDelegates({ host, store, written, tally: counting, model: chosen, agent: a, tools: reading })
          .tool,
    });
    project = prepared.project;
    tally.fixed(prepared.fitted.fixed, a.window);
    a.stop = () => halt.signal.aborted;
    a.steer = () => steering(runs, chat, written, given);
    let files: Attachment[];
    try {
      files = await attachmentsOf(host, work.user.files);
    } catch (error) {
      written.error(reason(error));
      return;
    }
    if (compacting) {
      await compactNow(a, written, halt.signal);
      ended = "done";
      return;
    }
    // What the person did with the agent's pending changes since its last turn is said with this message.
    const notes = (await host.notes?.().catch(() => [])) ?? [];
    const prompt = notes.length ? `${noteText(notes)}\n\n${work.user.text}` : work.user.text;
    // Whether the run's error item was written.
    let said = false;
    await run(a, prompt, {
      files,
      signal: halt.signal,
      each(piece) {
        if (piece.kind === "done" || piece.kind === "stopped" || piece.kind === "error") ended = piece.kind;
        written.piece(piece, a);
        if (piece.kind === "error") said = true;
      },
    }).catch((error: unknown) => {
      // The run rejects once its error item is written; any other failure (the store refused a
      // piece, and then the error that said so) is said by the catch below, never dropped.
      if (!said) throw error;
    });
  } catch (error) {
    // Something of the runner's own failed (a tool list, a skill folder): said, never a crash.
    written.error(t("The answer failed: {0}", reason(error)));
  } finally {
    if (runs.closing() && ended !== "done" && ended !== "error") {
      written.close(CALL_INTERRUPTED, "interrupted");
      written.error(INTERRUPTED, "interrupted");
    } else {
      written.close();
    }
    const usage = tally?.usage;
    if (usage && store.writable) written.usage(usage);
    const notes = project ? notesOf(project) : [];
    const opening = notes.length ? store.get("items", firstKey) : undefined;
    // The chips of the files the answer was given, on its first item.
    if (opening && store.writable) store.put("items", { ...opening, instructions: notes });
    const row = store.get("items", work.item.id);
    if (row && !row.done) store.put("items", { ...row, done: true });
  }
  const named = model;
  // A conversation already named (by the person, or a fork after its original) asks no title.
  const titled = store.get("conversations", chat)?.title.trim() ?? "";
  if (first && ended === "done" && named && (!titled || titled === firstWords))
    return (signal) => name(store, chat, named, work.user.text, firstWords, signal);
  return undefined;
}

/**
 * The messages that join the run at a round boundary: each is a message of the conversation, and
 * what the run writes from then on is the answer to the last of them (keyed after it, so it reads
 * under it, and a later run's history has each message before what answered it).
 */
async function steering(
  runs: Runs,
  chat: string,
  written: Answer,
  given: (user: Item) => Promise<Attached>,
): Promise<Message[]> {
  const joined = runs.steered?.(chat) ?? [];
  if (!joined.length) return [];
  written.follow(joined[joined.length - 1].id);
  return Promise.all(
    joined.map(async (user): Promise<Message> => {
      const files = user.files.length ? await given(user) : { text: "", images: [] };
      return {
        role: "user",
        text: user.text + files.text,
        ...(files.images.length ? { images: files.images } : {}),
      };
    }),
  );
}

/** The note on the agent's pending changes that goes before the person's message. */
function noteText(notes: string[]): string {
  return `[Tandem: what the person did with your pending changes since your last turn]\n${notes.join("\n")}`;
}

/** Names the conversation after its first answer, unless the person renamed it meanwhile; failure keeps the first words. */
async function name(
  store: Store,
  chat: string,
  model: Model,
  text: string,
  firstWords: string,
  signal: AbortSignal,
): Promise<void> {
  try {
    const named = await title(model, text, signal);
    const now = store.get("conversations", chat);
    if (
      named &&
      now &&
      !signal.aborted &&
      (now.title === firstWords || !now.title.trim()) &&
      store.writable
    ) {
      store.put("conversations", { ...now, title: named });
    }
  } catch {
    // The first words stay the title.
  }
}

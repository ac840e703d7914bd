/**
 * The approval engine's judgement of one call: the tool, its parsed input and the conversation.
 * A write to a protected path is always asked and "Always allow" is not offered for it; a fetch
 * asks the first time for each host the person did not name; hidden characters are written out
 * and flagged; and the question says why it asks. Every face (panel, notification, `@tandem`,
 * plugins, VS Code's tools) asks through `approveWith`.
 */
import { resolve } from "node:path";
import type { Tool } from "../../agent/types";
import { argsOrEmpty } from "../../protocol/args";
import {
  coverable,
  JUDGED,
  verdict,
  type Decision,
  type Question,
  type Rules,
  type ApprovalVerdict,
} from "./approval";
import { ownText } from "./quoted";
import type { CommandJudgement } from "../workspace";
import {
  judgeCommandInFolders,
  described,
  oneLine,
  place,
  type Folder,
  type Placed,
  instructs,
  protectedIn,
  toolKeysWritten,
  permitNetwork,
  sandboxing,
  type Sandboxing,
  shownIn,
  unreviewedFor,
  type Reviewing,
  visible,
} from "../workspace";
import { t } from "../../protocol/l10n";
import { hostOf } from "../../protocol/hostname";

/**
 * What "Always allow" lets by: every call of a tool or fetches of a host for the rest of a
 * conversation, or command lines kept as the person's own allow rules.
 */
export type Grant = { tool: string } | { host: string } | { commands: string[] };

/** What the person allowed in one conversation. */
export interface Allowance {
  tools: Set<string>;
  hosts: Set<string>;
}

/** The engine's judgement of one call. */
export interface Judgement {
  verdict: ApprovalVerdict;
  /** Why the person is asked, each a sentence ("It can run code on your machine …"). */
  reasons: string[];
  /** The call on one line, whole, hidden characters written out. */
  summary: string;
  /** What the call shows holds hidden characters (controls, bidi, zero-width). */
  hidden: boolean;
  /** What "Always allow" would let by; undefined where it cannot apply (a command, a protected path). */
  always?: Grant;
  /**
   * For a command line: the line, whether the rules that allow it carry the network, whether it runs
   * sandboxed, and whether the network may be let through at all (only then is "Allow with network" offered).
   */
  command?: { line: string; network: boolean; sandboxed: boolean; networkable: boolean };
}

/** The sandboxings whose absence the person was already told about in full (told once per machine's answer). */
const told = new WeakSet<Sandboxing>();

/**
 * Why a command is asked although no sandbox can be had: in full, with how to get one, the first
 * time; after that, said short where a rule would have allowed the line.
 */
function noSandbox(sandbox: Extract<Sandboxing, { kind: "none" }>, ruled: boolean): string | undefined {
  if (!told.has(sandbox)) {
    told.add(sandbox);
    return t(
      "Commands cannot run in a sandbox on this machine, so your command rules do not apply and every command is asked: {0}",
      sandbox.why,
    );
  }
  return ruled
    ? t("A rule allows this line, but rules apply only inside a sandbox, which this machine lacks.")
    : undefined;
}

/** The input field where each of Tandem's own tools writes (or runs). */
const TARGETS: Record<string, string> = { create_file: "path", propose_edit: "path", run_command: "cwd" };

/** Characters of a question a one-line notification shows whole. */
const SHORT = 200;

/** The host names of the http(s) addresses written in `texts` (not in what they quote: see quoted.ts). */
export function hostsNamed(texts: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const text of texts) {
    for (const match of ownText(text).matchAll(/\bhttps?:\/\/[^\s<>"'`]+/gi)) {
      const host = hostOf(match[0]);
      if (host) out.add(host);
    }
  }
  return out;
}

/**
 * Judges the call of `tool` with the JSON `input` under `rules`: "refused" or "allowed" as the
 * tool's rules say, except that a write to a protected path, a fetch of a host the person has not
 * named or allowed, and a call hiding characters are asked whatever "always" or a setting says.
 */
export async function judge(
  tool: Pick<Tool, "name" | "readOnly"> & Reviewing,
  input: string,
  rules: Rules,
): Promise<Judgement> {
  const { text: summary, hidden } = described(tool.name, input);
  const args = argsOrEmpty(input);
  const byName = verdict(tool, rules);
  if (byName === "refused") return { verdict: "refused", reasons: [], summary, hidden };
  const reasons: string[] = [];
  let pinned = false;
  let must = false;
  let grant: Grant | undefined = coverable(tool.name, rules) ? { tool: tool.name } : undefined;
  const field = TARGETS[tool.name];
  const target = field ? args[field] : undefined;
  let ruled: CommandJudgement | undefined;
  const folders = foldersOf(rules);
  let command: Judgement["command"];
  if (tool.name === "run_command") {
    const line = typeof args.command === "string" ? args.command : "";
    // Judged where it runs: the repository's configuration there (.npmrc, git settings) can void a rule.
    const cwd = typeof args.cwd === "string" ? args.cwd : ".";
    ruled = await judgeCommandInFolders(line, rules.commands?.rules() ?? NO_RULES, folders, cwd);
    if (ruled.verdict === "denied") return { verdict: "refused", reasons: [ruled.why], summary, hidden };
    reasons.push(t("It can run code on your machine: it runs a command line."));
    if (ruled.verdict === "ask" && rules.commands) reasons.push(ruled.why);
    // The person's rules trust a line to run in the sandbox, nowhere else.
    const sandbox = rules.sandbox ?? (await sandboxing());
    if (sandbox.kind === "none") {
      const why = noSandbox(sandbox, ruled.verdict === "allowed");
      if (why) reasons.push(why);
      if (ruled.verdict === "allowed") ruled = { verdict: "ask", why: why ?? "" };
    }
    const networked = new Set(rules.commands?.networked?.() ?? []);
    command = {
      line,
      network:
        ruled.verdict === "allowed" && ruled.rules.length > 0 && ruled.rules.every((r) => networked.has(r)),
      sandboxed: sandbox.kind !== "none",
      // Under tandem.localOnly a command gets no network whatever is answered: none is offered.
      networkable: sandbox.kind !== "none" && tool.noNetwork !== true,
    };
    // A rule's yes was not given to what the agent just wrote into the files the command runs.
    const changed = await unreviewedRun(tool, typeof args.command === "string" ? args.command : "", folders);
    if (changed) {
      reasons.push(
        t(
          "{0} was changed by Tandem and not reviewed yet: the command runs what it defines.",
          visible(oneLine(changed)),
        ),
      );
      must = true;
    }
    // Offered only where the face can keep the rule, for a line whose every part is plain, in a sandbox.
    grant =
      rules.commands && ruled.verdict === "ask" && ruled.offer && command.sandboxed
        ? { commands: ruled.offer }
        : undefined;
    // Pinned whether or not a rule allows the line: a rule never covers a protected place.
    if (folders.length) {
      const cwd = placeOf(folders, typeof args.cwd === "string" ? args.cwd : ".");
      const place = await touched(folders, cwd, typeof args.command === "string" ? args.command : "");
      if (place) {
        reasons.push(t("It can run code on your machine: the command names a protected place ({0}).", place));
        pinned = true;
      }
    }
  }
  if (typeof target === "string" && folders.length) {
    const place = (await protectedIn(folders, target)) ?? (await keysIn(folders, tool.name, target, input));
    if (place) {
      const shown = visible(oneLine(target));
      reasons.push(
        instructs(place)
          ? t(
              "It steers every later conversation: {0} is read as instructions for the agent ({1}).",
              shown,
              place,
            )
          : t("It can run code on your machine: {0} is in a protected place ({1}).", shown, place),
      );
      pinned = true;
    }
  }
  if (JUDGED.has(tool.name) && rules.settings?.[tool.name] !== "allow") {
    const url = typeof args.url === "string" ? args.url : "";
    const host = hostOf(url);
    grant = host ? { host } : undefined;
    const known = host !== undefined && (rules.hosts?.has(host) || hostsNamed(rules.said ?? []).has(host));
    if (!known) {
      reasons.push(
        t("It sends data to {0}: the address itself can carry it.", host ?? t("another computer")),
      );
      must = true;
    }
  }
  if (hidden) {
    reasons.push(t("Hidden characters in the call: they are shown as ⟦U+…⟧."));
    must ||= !tool.readOnly || JUDGED.has(tool.name);
  }
  const said = pinned || must ? "ask" : ruled?.verdict === "allowed" && byName === "ask" ? "allowed" : byName;
  return {
    verdict: said,
    reasons,
    summary,
    hidden,
    always: said === "ask" && !pinned ? grant : undefined,
    command,
  };
}

/** What the model reads for a call the rules refused (`why` as the call item shows it), so it can adapt. */
export function refusedNote(why: string): string {
  return `Refused, not run: ${why} The person's own rules decided this, not a question to them; do not try the same again: do it another way, or tell the person what you need.`;
}

/** The unreviewed file (as the person reads it) that defines what the command `line` runs, if any. */
async function unreviewedRun(tool: Reviewing, line: string, folders: Folder[]): Promise<string | undefined> {
  if (!tool.unreviewed) return undefined;
  const roots = folders.map((f) => f.root);
  const shown = (await tool.unreviewed().catch(() => [])).map((path) => shownIn(roots, path));
  return unreviewedFor(line, shown);
}

/** The tool keys of a `package.json` the write of `target` by `tool` changes, as a protected place. */
async function keysIn(
  folders: Folder[],
  tool: string,
  target: string,
  input: string,
): Promise<string | undefined> {
  if (tool === "run_command") return undefined;
  let at: Placed;
  try {
    at = place(folders, target);
  } catch {
    return undefined;
  }
  return toolKeysWritten(tool, input, resolve(at.folder.root, at.path));
}

/** No command rules: every command line is asked. */
const NO_RULES = { allow: [], deny: [] };

/** The workspace's folders the guards look in: the rules' folders, or its one root. */
function foldersOf(rules: Rules): Folder[] {
  if (rules.folders?.length) return [...rules.folders];
  return rules.root ? [{ name: "", root: rules.root }] : [];
}

/** Where a command runs: the folder its cwd names (the first when it names none) and the cwd in it. */
function placeOf(folders: Folder[], cwd: string): Placed {
  try {
    return place(folders, cwd, folders[0]);
  } catch {
    return { folder: folders[0], path: "." };
  }
}

/**
 * The protected place a word of the command line `line` names (`--out=.git/x` counts too), if any,
 * a relative word read from the command's `cwd` and from its folder's top.
 */
async function touched(folders: Folder[], cwd: Placed, line: string): Promise<string | undefined> {
  for (const word of line.split(/[\s'"]+/)) {
    for (const path of [word, word.slice(word.indexOf("=") + 1)]) {
      if (!path || path.startsWith("-")) continue;
      const found = await protectedIn(folders, path, cwd);
      if (found) return found;
    }
  }
  return undefined;
}

/** The question the person reads about a judged call (every face shows this one). */
export function questionOf(name: string, judged: Judgement): Question {
  const text = [t("Tandem wants to run {0}", judged.summary), ...judged.reasons].join("\n");
  const long = judged.hidden || text.length > SHORT || judged.summary.includes("⏎");
  const short = long
    ? judged.hidden
      ? t("Tandem wants to run {0} (hidden characters). Read all of it before you answer.", name)
      : t("Tandem wants to run {0}. Read all of it before you answer.", name)
    : text.replace(/\n/g, " — ");
  const always = !judged.always
    ? undefined
    : "tool" in judged.always
      ? t("Always Allow in This Conversation")
      : "host" in judged.always
        ? t("Allow {0} in This Conversation", judged.always.host)
        : t("Always Allow {0}", judged.always.commands.map((c) => `\`${c}\``).join(", "));
  const question: Question = { text, short, long, always };
  if (judged.command?.networkable) question.network = t("Allow with Network");
  return question;
}

/** Adds what `grant` lets by to `allowed`, or, for command lines, to the person's rules in `rules`. */
export function grantTo(allowed: Allowance, grant: Grant | undefined, rules?: Pick<Rules, "commands">): void {
  if (!grant) return;
  if ("tool" in grant) allowed.tools.add(grant.tool);
  else if ("host" in grant) allowed.hosts.add(grant.host);
  else
    rules?.commands
      ?.keep(grant.commands)
      .catch((error: unknown) =>
        console.error(`Tandem: the command rule could not be kept: ${String(error)}`),
      );
}

/** What a face asks the person: the question; resolves to their answer, undefined when nobody answered. */
export type Ask = (question: Question, judged: Judgement) => Promise<Decision | undefined>;

/**
 * The one approval of a call, for every face: judges it; when the person is needed, asks them
 * through `ask` and, for "always", adds what the question offered to `allowed`. Resolves to the
 * judgement and whether the call may run (undefined when nobody answered).
 */
export async function approveWith(
  tool: Pick<Tool, "name" | "readOnly"> & Reviewing,
  input: string,
  rules: Rules,
  allowed: Allowance,
  ask: Ask,
): Promise<{ judged: Judgement; yes: boolean | undefined }> {
  const judged = await judge(tool, input, rules);
  if (judged.verdict !== "ask") {
    // A rule that carries the network lets this run of the line reach it; one that does not, not.
    if (judged.verdict === "allowed" && judged.command)
      permitNetwork(judged.command.line, judged.command.network);
    return { judged, yes: judged.verdict === "allowed" };
  }
  const answer = await ask(questionOf(tool.name, judged), judged);
  if (answer === "always") grantTo(allowed, judged.always, rules);
  if (judged.command && answer !== undefined && answer !== false)
    permitNetwork(judged.command.line, answer === "network" && judged.command.networkable);
  return { judged, yes: answer === undefined ? undefined : answer !== false };
}

/** The allowance kept in a `@tandem` answer's metadata, read back (anything malformed allows nothing). */
export function allowanceOf(value: unknown): Allowance {
  const record = value !== null && typeof value === "object" ? (value as Record<string, unknown>) : {};
  const list = (v: unknown) => (Array.isArray(v) ? v.filter((s): s is string => typeof s === "string") : []);
  return { tools: new Set(list(record.tools)), hosts: new Set(list(record.hosts)) };
}

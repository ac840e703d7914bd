/**
 * The constructors of chat.md: new rows as a page or the runner adds them, with keys that sort in
 * creation order, and the small functions over models and sources the panel shows.
 */
import { randomBytes } from "node:crypto";
import type { FileRef } from "../protocol/file-refs";
import { isIP } from "node:net";
import {
  checked,
  type Assistant,
  type Choice,
  type Conversation,
  type Item,
  type Kind,
  type Memory,
  type MemorySource,
  type Plugin,
  type Skill,
} from "./row-schemas";

// Base 36 in ASCII order, so a key's text sorts as its number does.
const DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz";
const SEQ = 36 ** 4;
let lastMs = 0;
let seq = 0;
// One random tail a process: two processes that make a key in the same millisecond differ by it.
const tail = Array.from(randomBytes(6), (b) => DIGITS[b % 36]).join("");

function base36(n: number, width: number): string {
  let s = "";
  for (let i = 0; i < width; i++) {
    s = DIGITS[n % 36] + s;
    n = Math.floor(n / 36);
  }
  return s;
}

/**
 * A new key: later keys of this process sort after earlier ones even when the clock stands still
 * or goes back (the time, then a counter), and keys of two processes do not collide (a random
 * tail a process). 19 characters of [0-9a-z].
 */
export function newKey(now: number = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    seq = 0;
  } else if (++seq >= SEQ) {
    lastMs++;
    seq = 0;
  }
  return base36(lastMs, 9) + base36(seq, 4) + tail;
}

/**
 * The time a key was made, in ms since 1970 (NaN for a key not made by `newKey`). A key made from
 * another (an answer's items are keyed after their message: `KEY.0003`) has its parent's time.
 */
export function keyTime(key: string): number {
  if (!/^[0-9a-z]{19}(\.|$)/.test(key)) return NaN;
  return parseInt(key.slice(0, 9), 36);
}

/** A new memory of the assistant `agent`, kept at `created` (ms since 1970), from `source`. */
export function memory(
  agent: string,
  text: string,
  source: MemorySource,
  created: number = Date.now(),
): Memory {
  return checked("memories", {
    id: newKey(),
    agent,
    text,
    created: Math.max(0, Math.floor(created)),
    source,
  });
}

/** A new item of `kind` with `text` in the conversation `chat`. */
export function item(kind: Kind, text: string, chat = ""): Item {
  return checked("items", {
    id: newKey(),
    chat,
    kind,
    text,
    name: "",
    input: "",
    output: "",
    file: "",
    files: [],
    model: "",
    state: kind === "call" ? "running" : "",
    done: false,
  });
}

/** The person's message `text` in `chat` to `model` ("" the agent's), with the `files` attached. */
export function asked(text: string, chat: string, model = "", files: FileRef[] = []): Item {
  return { ...item("user", text, chat), model, files };
}

/** The person's wish for the last answer of `chat` again, from `model` ("" the one it had). */
export function retried(chat: string, model = ""): Item {
  return { ...item("retry", "", chat), model };
}

/** The person's wish that the run of `chat` stops; what it wrote stays. */
export function stopped(chat: string): Item {
  return item("stop", "", chat);
}

/** The call `c` as the person decided it: approved or declined (what its question offered goes with the question). */
export function decided(c: Item, yes: boolean): Item {
  if (c.kind !== "call") throw new Error(`only a call is approved or declined, not a ${c.kind} item`);
  const { always: _offered, network: _network, ...call } = c;
  return { ...call, state: yes ? "approved" : "declined" };
}

/** A new agent, as the page adds it: no instructions, the default model, every tool. */
export function assistant(id: string, name: string): Assistant {
  return checked("assistants", { id, name, instructions: "", model: "", tools: "", approve: "" });
}

/** A new, empty conversation with the agent `agent`. */
export function conversation(agent: string, title = ""): Conversation {
  return checked("conversations", { id: newKey(), agent, title });
}

/** A new, empty skill. */
export function skill(): Skill {
  return checked("skills", { id: newKey(), name: "", description: "", body: "" });
}

// Second-level labels under a country's domain that name a kind, not a site (example.co.uk).
const KIND_LABELS = new Set(["co", "com", "net", "org", "gov", "edu", "ac", "or", "ne", "go"]);

/** The name a site is known by: mcp.example.com is "example"; an address by number keeps it. */
function siteName(host: string): string {
  const bare = host.replace(/^\[|\]$/g, "");
  if (isIP(bare)) return bare.replace(/[^0-9a-zA-Z]/g, "_");
  const labels = bare.toLowerCase().replace(/\.$/, "").split(".").filter(Boolean);
  if (labels.length === 1) return labels[0];
  labels.pop();
  const last = labels[labels.length - 1];
  if (labels.length > 1 && KIND_LABELS.has(last) && host.split(".").pop()!.length === 2) labels.pop();
  return labels[labels.length - 1];
}

/** A tool-name prefix made of the text: letters, digits and "_" (others become "_"). */
function prefixOf(text: string): string {
  const name = text.replace(/[^0-9A-Za-z_]+/g, "_").replace(/^_+|_+$/g, "");
  return name.slice(0, 80);
}

/**
 * A new plugin of the agent `agent` at `address`, enabled and named after its site (mcp.example.com
 * is "example"; 127.0.0.1 is "127_0_0_1"). An address that is not http(s) is a stdio server's
 * command line, named after the program it runs (its last word that is not an option).
 * Throws when the address is empty or of another scheme.
 */
export function plugin(agent: string, address: string): Plugin {
  const at = address.trim();
  if (!at) throw new Error("a plugin needs an address");
  let name: string;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(at)) {
    let url: URL;
    try {
      url = new URL(at);
    } catch {
      throw new Error(`"${at}" is not an address`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new Error(`a plugin's address is http or https, not ${url.protocol.slice(0, -1)}`);
    }
    const site = siteName(url.hostname);
    name = isIP(url.hostname.replace(/^\[|\]$/g, "")) ? site : prefixOf(site);
  } else if (/^[^\s/]+\.[^\s/]+(:\d+)?(\/\S*)?$/.test(at) && !/^\.|\.(js|mjs|cjs|py|ts|sh|exe)$/i.test(at)) {
    // A bare host such as mcp.example.com/mcp is an https address.
    return plugin(agent, `https://${at}`);
  } else {
    const words = at.split(/\s+/).filter((w) => !w.startsWith("-"));
    const program = (words[words.length - 1] ?? at).split(/[\\/]/).pop()!;
    name = prefixOf(program.replace(/\.[a-z]+$/i, ""));
  }
  if (!name) throw new Error(`no name can be made of the address "${at}"`);
  return checked("plugins", {
    id: newKey(),
    agent,
    name,
    address: at,
    header: "",
    secret: false,
    enabled: true,
    status: "",
  });
}

/** The group of the models that run on this computer (a local server found by its port). */
export const LOCAL_GROUP = "This computer";
/** The group of the models the editor offers. */
export const EDITOR_GROUP = "VS Code";
/** The group of the models of the configured endpoint. */
export const ENDPOINT_GROUP = "Endpoint";

/**
 * The choice of the model `id`: "local:NAME" runs on this computer, "vscode:NAME" is one the editor
 * offers, another is a model of the configured endpoint. `fallback`: it is the model an agent
 * answers with when none is chosen (its note says "default"). Throws on an empty id.
 */
export function choiceOf(id: string, fallback = false): Choice {
  if (!id.trim()) throw new Error("a model's id is not empty");
  const colon = id.indexOf(":");
  const prefix = colon > 0 ? id.slice(0, colon) : "";
  const rest = id.slice(colon + 1);
  const [group, name] =
    prefix === "local" && rest
      ? [LOCAL_GROUP, rest]
      : prefix === "vscode" && rest
        ? [EDITOR_GROUP, rest]
        : [ENDPOINT_GROUP, id];
  return checked("choices", { id, name, group, note: fallback ? "default" : "" });
}

/**
 * The name of the model the agent `agent` ("" the first) answers with when the person chooses
 * none: its own, else `fallback` (the configured default), else the first model listed.
 * "" when there is none.
 */
export function inUse(models: Choice[], agents: Assistant[], agent: string, fallback = ""): string {
  const a = agent ? agents.find((x) => x.id === agent) : agents[0];
  const id = a?.model || fallback || models[0]?.id || "";
  if (!id) return "";
  return models.find((m) => m.id === id)?.name ?? choiceOf(id).name;
}

/** The groups of `models`, in the order they first come. */
export function groups(models: Choice[]): string[] {
  return [...new Set(models.map((m) => m.group))];
}

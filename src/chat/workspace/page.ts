/**
 * The `fetch_page` tool: a public web page as text. Every address, the first and each redirect's,
 * is checked to be public before it is reached, and the connection goes to the address checked,
 * never through a proxy (a name that changes its answer cannot slip through). Size and time are limited.
 */

import type http from "node:http";
import type { Readable as Stream } from "node:stream";
import zlib from "node:zlib";
import { z } from "zod";
import { tool } from "../../agent/tool";
import type { Tool } from "../../agent/types";
import type { Source } from "../../protocol/rows";
import {
  checkPublic,
  type AddressOptions,
  type Checked,
  pinnedRequest,
  proxyNote,
  type Connect,
} from "../net";
import { htmlText } from "./html-text";
import { charsetOf, kindOf } from "./content";
import { size } from "./counts";

/** Bytes of a page read at most. */
export const MAX_BYTES = 1024 * 1024;
/** Milliseconds a fetch may take, redirects included. */
export const MAX_MS = 15_000;
/** Redirects followed at most. */
export const MAX_REDIRECTS = 5;
/** Characters of a page's text one call answers. */
export const TEXT_CHARS = 40_000;

// A source the runner shows as a chip: the protocol's shape.
export type { Source };

/** A fetched page: its title, final address, text, and the sources to show. */
export interface Page {
  title: string;
  url: string;
  text: string;
  sources: Source[];
}

/** How pages are fetched. */
export interface PageOptions extends AddressOptions {
  maxBytes?: number;
  timeoutMs?: number;
  maxRedirects?: number;
  /** Opens the TCP connection to the checked address (tests route a public address to a local server). */
  connect?: Connect;
  /** Certificate authorities trusted instead of the system's (tests with their own certificate). */
  ca?: string | Buffer;
  /** The person set Tandem to work locally only: no page is fetched. */
  localOnly?: boolean;
}

/** What a fetch answers while Tandem works locally only. */
export const LOCAL_ONLY_PAGE =
  "fetch_page is off: the person set Tandem to work locally only (tandem.localOnly), so it connects to no web page. Work from the workspace's files, or tell the person which page you need.";

/** One HTTP answer: its status, headers and body stream. */
interface Answer {
  status: number;
  message: string;
  headers: http.IncomingHttpHeaders;
  body: http.IncomingMessage;
}

/** A GET of the checked address, connected to that address itself (see src/chat/net/pinned.ts). */
export function get(checked: Checked, options: PageOptions, signal: AbortSignal): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = pinnedRequest(
      checked,
      {
        ...options,
        headers: {
          "user-agent": "Tandem (fetch_page)",
          accept: "text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.5",
          "accept-encoding": "gzip, deflate, br",
        },
        signal,
      },
      (body) =>
        resolve({
          status: body.statusCode ?? 0,
          message: body.statusMessage ?? "",
          headers: body.headers,
          body,
        }),
    );
    request.on("error", reject);
    request.end();
  });
}

/** The body decompressed as its Content-Encoding says. */
function decoded(answer: Answer): Stream {
  const encoding = String(answer.headers["content-encoding"] ?? "").toLowerCase();
  if (encoding === "gzip" || encoding === "x-gzip") return answer.body.pipe(zlib.createGunzip());
  if (encoding === "deflate") return answer.body.pipe(zlib.createInflate());
  if (encoding === "br") return answer.body.pipe(zlib.createBrotliDecompress());
  return answer.body;
}

/** The first `max` bytes of a body, and whether there was more. */
export async function readUpTo(answer: Answer, max: number): Promise<{ data: Buffer; more: boolean }> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  const stream = decoded(answer);
  try {
    for await (const chunk of stream) {
      const piece = chunk as Buffer;
      if (bytes + piece.length > max) {
        chunks.push(piece.subarray(0, max - bytes));
        return { data: Buffer.concat(chunks), more: true };
      }
      chunks.push(piece);
      bytes += piece.length;
    }
  } finally {
    stream.destroy();
    answer.body.destroy();
  }
  return { data: Buffer.concat(chunks), more: false };
}

/** A fetch's own refusal, passed on as written. */
class PageError extends Error {}

/** Why a fetch failed, in words the model can act on. */
function failure(error: unknown, url: string, timedOut: boolean, timeoutMs: number): Error {
  if (timedOut) return new Error(`${url} did not answer within ${Math.round(timeoutMs / 100) / 10} s.`);
  if (error instanceof PageError) return error;
  const e = error as NodeJS.ErrnoException;
  if (e.name === "AddressError" || e.code === "EPRIVATE") return new Error(e.message);
  if (e.name === "AbortError") return new Error(`The fetch of ${url} was stopped.`);
  return new Error(`Could not fetch ${url}: ${e.code ? `${e.code} ` : ""}${e.message}${proxyNote(e)}`);
}

/** The lower-case host name of the address a call named ("" when it is not a URL). */
function hostOfAddress(address: string): string {
  try {
    return new URL(address).hostname.toLowerCase();
  } catch {
    return "";
  }
}

/** What the model reads of a redirect to another host than the one the call named (and the person approved). */
function elsewhere(from: string, to: URL, host: string): string {
  return (
    `${from} redirects to ${to.href}, on another host than ${host}. It was not followed: ` +
    `call fetch_page with that address to read it (the person is asked about a host they have not allowed).`
  );
}

/** Fetches `address` (public http/https only, redirects re-checked) and gives its title and text. */
export async function fetchPage(
  address: string,
  options: PageOptions = {},
  signal?: AbortSignal,
): Promise<Page> {
  if (options.localOnly) throw new Error(LOCAL_ONLY_PAGE);
  const timeoutMs = options.timeoutMs ?? MAX_MS;
  const timer = new AbortController();
  const clock = setTimeout(() => timer.abort(), timeoutMs);
  const both = signal ? AbortSignal.any([signal, timer.signal]) : timer.signal;
  let current = address;
  let previous = address;
  try {
    for (let hop = 0; hop <= (options.maxRedirects ?? MAX_REDIRECTS); hop++) {
      const checked = await checkPublic(current, options).catch((error: Error) => {
        throw hop === 0 ? error : new PageError(`${previous} redirects to ${current}: ${error.message}`);
      });
      const { url } = checked;
      // The approval was for the first address's host (a private one is refused above, first).
      const host = hostOfAddress(address);
      if (hop > 0 && url.hostname.toLowerCase() !== host) throw new PageError(elsewhere(previous, url, host));
      const answer = await get(checked, options, both);
      const location = answer.headers.location;
      if (answer.status >= 300 && answer.status < 400 && location) {
        answer.body.destroy();
        previous = url.href;
        let next: URL;
        try {
          next = new URL(location, url);
        } catch {
          throw new PageError(`${url.href} redirects to an address that is not valid: ${location}`);
        }
        current = next.href;
        continue;
      }
      if (answer.status < 200 || answer.status >= 300) {
        answer.body.destroy();
        throw new PageError(
          `${url.href} answered HTTP ${answer.status}${answer.message ? ` ${answer.message}` : ""}.`,
        );
      }
      const type = String(answer.headers["content-type"] ?? "");
      const maxBytes = options.maxBytes ?? MAX_BYTES;
      const { data, more } = await readUpTo(answer, maxBytes);
      const kind = kindOf(type, data);
      if (kind === "other") {
        throw new PageError(
          `${url.href} is ${type || "binary data"}, not a web page; fetch_page reads only HTML and text.`,
        );
      }
      const text = new TextDecoder(charsetOf(type, data), { fatal: false }).decode(data);
      const readable = kind === "html" ? htmlText(text) : { title: "", text: text.trim() };
      const title = readable.title || url.hostname + (url.pathname === "/" ? "" : url.pathname);
      const note = more ? `\n\n[The page is larger than ${size(maxBytes)}; only its start was read.]` : "";
      return { title, url: url.href, text: readable.text + note, sources: [{ title, url: url.href }] };
    }
    throw new PageError(
      `${address} redirects more than ${options.maxRedirects ?? MAX_REDIRECTS} times; gave up.`,
    );
  } catch (error) {
    throw failure(error, current, timer.signal.aborted, timeoutMs);
  } finally {
    clearTimeout(clock);
  }
}

const input = z.object({
  url: z.string().min(1).describe("The page's address (http or https, a public site)."),
  offset: z
    .number()
    .int()
    .min(0)
    .default(0)
    .describe("Where to start in the page's text (to read a long page on)."),
});

/** The `fetch_page` tool: a page's text from `offset`, up to TEXT_CHARS characters, with its source. */
export function fetchPageTool(options: PageOptions = {}): Tool {
  return tool(
    "fetch_page",
    "Fetches a public web page (http or https) and answers its title, address and readable text (scripts, styles and tags removed). Private and local addresses are refused.",
    input,
    async ({ url, offset }, signal): Promise<Page> => {
      const page = await fetchPage(url, options, signal);
      const end = Math.min(page.text.length, offset + TEXT_CHARS);
      let text = page.text.slice(offset, end);
      if (offset > 0) text = `[Characters ${offset}–${end} of ${page.text.length}.]\n${text}`;
      if (end < page.text.length) {
        text += `\n[The text goes on: ${page.text.length - end} more characters; read on with offset ${end}.]`;
      }
      return { ...page, text };
    },
    { readOnly: true, timeoutMs: MAX_MS + 5_000 },
  );
}

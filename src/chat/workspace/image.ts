/**
 * A remote image the person asked the panel to show, fetched by the host as `fetch_page` fetches a
 * page: public addresses only (every redirect checked again, the connection itself guarded), no
 * cookies or credentials, a size and time limit, and only PNG, JPEG, GIF or WebP — recognised by
 * their bytes, whatever the server claims. The panel gets it as a data URL, so its CSP allows no
 * remote image at all.
 */
import { checkPublic, type Lookup } from "../net";
import { get, readUpTo, type PageOptions } from "./page";
import { size } from "./counts";

/** Bytes of an image read at most. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** Milliseconds an image fetch may take, redirects included. */
export const IMAGE_MS = 15_000;
/** Redirects followed at most. */
const MAX_REDIRECTS = 5;

/** How images are fetched; tests route a public name to a local server. Private addresses: never. */
export interface ImageOptions {
  lookup?: Lookup;
  connect?: PageOptions["connect"];
  ca?: PageOptions["ca"];
  maxBytes?: number;
  timeoutMs?: number;
}

/** The raster type of DATA from its first bytes, or undefined for anything else (SVG, HTML…). */
export function rasterType(data: Buffer): string | undefined {
  const starts = (...bytes: number[]) => bytes.every((b, i) => data[i] === b);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png";
  if (starts(0xff, 0xd8, 0xff)) return "image/jpeg";
  if (
    data
      .subarray(0, 6)
      .toString("latin1")
      .match(/^GIF8[79]a$/)
  )
    return "image/gif";
  if (data.subarray(0, 4).toString("latin1") === "RIFF" && data.subarray(8, 12).toString("latin1") === "WEBP")
    return "image/webp";
  return undefined;
}

/** An image fetch's own refusal, passed on as written. */
class ImageError extends Error {}

/**
 * The image at `address` as a `data:` URL; throws an Error whose message says, in words for the
 * person, why it could not be loaded.
 */
export async function fetchImage(address: string, options: ImageOptions = {}): Promise<string> {
  const page: PageOptions = {
    allowPrivate: false,
    lookup: options.lookup,
    connect: options.connect,
    ca: options.ca,
  };
  const timeoutMs = options.timeoutMs ?? IMAGE_MS;
  const maxBytes = options.maxBytes ?? MAX_IMAGE_BYTES;
  const timer = new AbortController();
  const clock = setTimeout(() => timer.abort(), timeoutMs);
  let current = address;
  try {
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const checked = await checkPublic(current, page);
      const { url } = checked;
      const answer = await get(checked, page, timer.signal);
      const location = answer.headers.location;
      if (answer.status >= 300 && answer.status < 400 && location) {
        answer.body.destroy();
        try {
          current = new URL(location, url).href;
        } catch {
          throw new ImageError(`it redirects to an address that is not valid: ${location}`);
        }
        continue;
      }
      if (answer.status < 200 || answer.status >= 300) {
        answer.body.destroy();
        throw new ImageError(
          `the server answered HTTP ${answer.status}${answer.message ? ` ${answer.message}` : ""}`,
        );
      }
      const { data, more } = await readUpTo(answer, maxBytes);
      if (more) throw new ImageError(`it is larger than ${size(maxBytes)}`);
      const type = rasterType(data);
      if (!type) {
        const said = String(answer.headers["content-type"] ?? "")
          .split(";")[0]
          .trim();
        throw new ImageError(`it is ${said || "unknown data"}, not a PNG, JPEG, GIF or WebP image`);
      }
      return `data:${type};base64,${data.toString("base64")}`;
    }
    throw new ImageError(`it redirects more than ${MAX_REDIRECTS} times`);
  } catch (error) {
    if (timer.signal.aborted) throw new Error(`it did not arrive within ${Math.round(timeoutMs / 1000)} s`);
    if (error instanceof ImageError) throw error;
    const e = error as NodeJS.ErrnoException;
    // The setting a refusal names is the plugins' own: no setting lets an image reach a private address.
    if (/^refused: private address/.test(e.message))
      throw new Error(`${e.message.split(";")[0]}; images load from public addresses only`);
    throw new Error(e.code && !e.message.includes(e.code) ? `${e.code} ${e.message}` : e.message);
  } finally {
    clearTimeout(clock);
  }
}

/** What a fetched body is (HTML, text, or something else) and which character set it is in. */

import { binary } from "./line-range";

/** How a body is read. */
export type Kind = "html" | "text" | "other";

/** The kind of a body from its Content-Type, or from its first bytes when there is none. */
export function kindOf(contentType: string, data: Buffer): Kind {
  const type = contentType.split(";")[0].trim().toLowerCase();
  if (type === "text/html" || type === "application/xhtml+xml") return "html";
  if (type.startsWith("text/")) return "text";
  if (/^application\/(json|xml|javascript|ecmascript|x-javascript|ld\+json|rss\+xml|atom\+xml)$/.test(type)) {
    return "text";
  }
  if (/\+(json|xml)$/.test(type)) return "text";
  if (type !== "" && type !== "application/octet-stream") return "other";
  if (binary(data)) return "other";
  const head = data.subarray(0, 1024).toString("latin1").trimStart().toLowerCase();
  return head.startsWith("<!doctype html") || head.startsWith("<html") || head.includes("<body")
    ? "html"
    : "text";
}

/** A label TextDecoder knows, else utf-8. */
function known(label: string | undefined): string | undefined {
  if (!label) return undefined;
  try {
    return new TextDecoder(label).encoding;
  } catch {
    return undefined;
  }
}

/** The character set of a body: its Content-Type's, a byte order mark, or a `<meta>` charset; else utf-8. */
export function charsetOf(contentType: string, data: Buffer): string {
  const declared = known(/charset\s*=\s*"?([\w.:-]+)/i.exec(contentType)?.[1]);
  if (declared) return declared;
  if (data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf) return "utf-8";
  if (data[0] === 0xff && data[1] === 0xfe) return "utf-16le";
  if (data[0] === 0xfe && data[1] === 0xff) return "utf-16be";
  const head = data.subarray(0, 2048).toString("latin1");
  const meta = /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head)?.[1];
  return known(meta) ?? "utf-8";
}

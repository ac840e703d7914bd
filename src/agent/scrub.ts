/** An API key cut out of text a server sent back (LiteLLM and some proxies echo the Authorization header). */

/** What stands in for a key that was cut out. */
export const HIDDEN = "[key hidden]";

/** Keys shorter than this (and "none", the SDK's stand-in) are not searched for: they would match ordinary words. */
const SHORTEST = 6;

/** A cut-off echo of the key (an error text shortened by the server or by us) is hidden from this length on. */
const SHORTEST_PART = 10;

/**
 * `text` without `key` in any form a server may echo it: as it is (so also `Bearer <key>`), escaped
 * inside JSON, URL-encoded, or cut off at the end of the text after at least ten of its characters.
 */
export function scrub(text: string, key: string | null | undefined, hidden = HIDDEN): string {
  if (!key || key.length < SHORTEST || key === "none") return text;
  const forms = [...new Set([key, JSON.stringify(key).slice(1, -1), encodeURIComponent(key)])];
  let out = text;
  for (const form of forms) out = out.split(form).join(hidden);
  if (key.length < SHORTEST_PART + 2) return out;
  for (const form of forms) out = cutParts(out, form, hidden);
  return out;
}

/** `text` without any run of `form`'s first characters (at least SHORTEST_PART of them). */
function cutParts(text: string, form: string, hidden: string): string {
  const head = form.slice(0, SHORTEST_PART);
  let out = "";
  let from = 0;
  for (let at = text.indexOf(head); at >= 0; at = text.indexOf(head, from)) {
    let end = at + head.length;
    while (end < text.length && end - at < form.length && text[end] === form[end - at]) end++;
    out += text.slice(from, at) + hidden;
    from = end;
  }
  return out + text.slice(from);
}

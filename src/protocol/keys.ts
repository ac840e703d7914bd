// The keys of items, as both sides read them: an answer's items are keyed after the item they answer.

/** The key of the item an answer item answers ("" for an item that is not part of an answer). */
export function parentOf(key: string): string {
  const dot = key.indexOf(".");
  return dot < 0 ? "" : key.slice(0, dot);
}

/**
 * The order of two keys, as the store orders them: by their characters' codes. A key is the time,
 * then a counter, in fixed-width base 36, so this is the order they were made in; an answer's
 * `KEY.0003` comes right after its `KEY` ("." sorts before every digit and letter).
 */
export function byKey(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

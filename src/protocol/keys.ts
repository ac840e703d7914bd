// The keys of items, as both sides read them: an answer's items are keyed after the item they answer.

/** The key of the item an answer item answers ("" for an item that is not part of an answer). */
export function parentOf(key: string): string {
  const dot = key.indexOf(".");
  return dot < 0 ? "" : key.slice(0, dot);
}

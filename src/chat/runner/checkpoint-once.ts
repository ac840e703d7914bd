/**
 * The rule both faces follow for an answer's checkpoint (the panel's runner and `@tandem` in VS
 * Code's Chat view): one checkpoint per answer, taken before its first call that may change the
 * workspace, once that call is approved and before it runs.
 */

/**
 * What to await after a call `name` is approved: the answer's one checkpoint, taken by `take` on
 * the first call that is not one of `own` (tools that write only Tandem's store); every later call
 * waits for the same one. The agent asks approval only for calls that are not read-only, so this
 * covers edits, created files, pending writes, commands and plugins' tools that may write. A
 * failed checkpoint goes to `failed` and the call goes on. No `take`: nothing to wait for.
 */
export function checkpointBefore(
  take: (() => Promise<void>) | undefined,
  own: ReadonlySet<string>,
  failed: (error: unknown) => void,
): (name: string) => Promise<void> | undefined {
  let taken: Promise<void> | undefined;
  return (name) => (own.has(name) || !take ? undefined : (taken ??= take().catch(failed)));
}

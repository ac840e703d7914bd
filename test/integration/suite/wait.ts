/** Waits until `check` gives a value, or fails after `ms`. */
export async function until<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  ms = 20_000,
  what = "the condition",
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

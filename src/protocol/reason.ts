// The text of what was thrown, by one rule on both sides of the panel, so an error reads the same
// wherever it is shown.

/** The text of what a tool, a model or any other call threw. */
export function reason(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === "string") return error;
  // JSON.stringify throws on a circular object or a bigint; a reason must never throw itself.
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}

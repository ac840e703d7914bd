/** What a call shows in its summary line. */
import { readArgs } from "../src/protocol/args";

/** A short line for a call's input: its values, not its JSON punctuation. */
export function inputSummary(input: string, max = 80): string {
  // Arguments that cannot be read are shown as they are.
  const read = readArgs(input);
  let line = read.ok
    ? Object.entries(read.args)
        .map(([key, entry]) => `${key}: ${typeof entry === "string" ? entry : JSON.stringify(entry)}`)
        .join(", ")
    : input;
  line = line.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

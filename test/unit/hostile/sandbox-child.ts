/**
 * Run as its own process by attacks-sandbox.ts, with a secret in its environment as the extension
 * host would have one: runs `node attack.js` in the workspace given, through the real run_command
 * tool (which withholds the secret from the command), sandboxed or plainly, and prints its answer.
 */
import { runIn } from "./attacks-sandbox";

const [root, mode] = process.argv.slice(2);
runIn(root, mode === "sandboxed").then(
  (answer) => process.stdout.write(`${answer}\n`),
  (error: unknown) => {
    process.stdout.write(`failed: ${String(error)}\n`);
    process.exitCode = 1;
  },
);

/**
 * The process the crash test kills: opens the checkpoint store and saves, or restores a checkpoint.
 * It kills itself (SIGKILL) at step `killAt` (a file read or written), or runs on until the parent
 * kills it at a random moment. Prints "done <id>" if it finishes.
 *   node --import tsx crash-child.ts ROOT STORE save|restore TARGET KILL_AT
 */
import { Checkpoints } from "../../../src/chat/checkpoints/checkpoints";

async function main(): Promise<void> {
  const [root, folder, mode, target, killAt] = process.argv.slice(2);
  const c = await Checkpoints.open({ root, folder, maxFileBytes: 256 * 1024 });
  let steps = 0;
  const step = () => {
    if (steps++ === Number(killAt)) process.kill(process.pid, "SIGKILL");
  };
  process.stdout.write("ready\n");
  if (mode === "save") {
    const r = await c.save("saved by the child", "conv", step);
    process.stdout.write(`done ${r.id}\n`);
  } else {
    const r = await c.restore(target, step);
    process.stdout.write(`done ${r.undo}\n`);
  }
  await c.close();
}

void main();

// Runs inside VS Code's extension host (extensionTestsPath): mocha over the integration tests, then a
// result file for the harness, which treats a missing file as a failure.
import Mocha from "mocha";
import { writeFileSync } from "node:fs";
import { metrics } from "./metrics";

export async function run(): Promise<void> {
  const grep = process.env.TANDEM_TEST_GREP;
  const mocha = new Mocha({
    ui: "bdd",
    reporter: "spec",
    color: false,
    timeout: 60_000,
    ...(grep ? { grep } : {}),
  });
  mocha.suite.emit("pre-require", globalThis, "integration", mocha);
  // Test files are bundled here and load after mocha's globals exist.
  if (process.env.TANDEM_TEST_PHASE === "reload") {
    await import("./reload.test");
  } else if (process.env.TANDEM_TEST_PHASE === "multiroot") {
    await import("./multiroot.test");
  } else if (process.env.TANDEM_TEST_PHASE === "history-fill") {
    await import("./history-fill.test");
  } else if (process.env.TANDEM_TEST_PHASE === "history") {
    await import("./history.test");
  } else if (process.env.TANDEM_TEST_PHASE === "untrusted") {
    await import("./untrusted.test");
  } else {
    await import("./activation.test");
    await import("./l10n.test");
    await import("./participant.test");
    await import("./panel.test");
    await import("./budget.test");
    await import("./check.test");
    await import("./settings.test");
    await import("./exports.test");
    await import("./background.test");
    // Before cut.test, whose answer must still be streaming when the window goes away.
    await import("./pending.test");
    // Before cut.test: that one leaves the panel's conversation streaming for the reload phase.
    await import("./editor-tools.test");
    await import("./newcomer.test");
    await import("./learned.test");
    await import("./images.test");
    await import("./lm-settings.test");
    await import("./local-only.test");
    await import("./restore.test");
    await import("./chat-restore.test");
    await import("./again.test");
    await import("./picker.test");
    await import("./prompt-files.test");
    await import("./instructions.test");
    await import("./notifications.test");
    await import("./subagents.test");
    await import("./plan-mode.test");
    await import("./queue.test");
    // Last: its answer is still streaming when the window reloads (reload.test reads it).
    await import("./cut.test");
  }
  const failures: string[] = [];
  const stats = await new Promise<{ passes: number; failures: number }>((resolve) => {
    const runner = mocha.run(() =>
      resolve({ passes: runner.stats?.passes ?? 0, failures: runner.stats?.failures ?? 0 }),
    );
    runner.on("fail", (test, err: Error) => failures.push(`${test.fullTitle()}: ${err.message}`));
  });
  const file = process.env.TANDEM_TEST_RESULT;
  if (file)
    writeFileSync(file, JSON.stringify({ passed: stats.passes, failed: stats.failures, failures, metrics }));
  if (stats.failures > 0) throw new Error(`${stats.failures} integration tests failed`);
}

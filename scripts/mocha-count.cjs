// Mocha's spec reporter, plus the counts written to $TANDEM_COUNT_FILE for the summary line of `npm test`,
// with each failed test's full title and its error (the summary repeats them at its end,
// where a log shown only in its last lines still names what failed).
const Mocha = require("mocha");
const { writeFileSync } = require("node:fs");

class Counted extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const failures = [];
    runner.on("fail", (test, error) => {
      failures.push(`${test.fullTitle()} — ${String(error?.message ?? error)}`);
    });
    runner.once("end", () => {
      const file = process.env.TANDEM_COUNT_FILE;
      if (file)
        writeFileSync(
          file,
          JSON.stringify({ passed: runner.stats.passes, failed: runner.stats.failures, failures }),
        );
    });
  }
}
module.exports = Counted;

// Mocha's spec reporter, plus the counts written to $TANDEM_COUNT_FILE for the summary line of `npm test`.
const Mocha = require("mocha");
const { writeFileSync } = require("node:fs");

class Counted extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once("end", () => {
      const file = process.env.TANDEM_COUNT_FILE;
      if (file)
        writeFileSync(file, JSON.stringify({ passed: runner.stats.passes, failed: runner.stats.failures }));
    });
  }
}
module.exports = Counted;

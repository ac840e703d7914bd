import assert from "node:assert/strict";
import { BREACHES } from "../hostile/attacks-sandbox";

describe("the sandbox attacks: each gets through when the command runs plainly, and not in bubblewrap", () => {
  for (const breach of BREACHES) {
    it(breach.name, async () => {
      assert.equal(await breach.tryIt(false), true, "without the sandbox the attack should get through");
      assert.equal(await breach.tryIt(true), false, "in the sandbox the attack got through");
    });
  }
});

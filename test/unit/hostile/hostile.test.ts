import assert from "node:assert/strict";
import { allAttacks } from "./attack";

describe("the hostile-repository suite: every attack ends asked or refused, never done silently", () => {
  const attacks = allAttacks();

  it("has attacks to try", () => assert.ok(attacks.length > 0));

  for (const attack of attacks) {
    it(`${attack.finding ? `#${attack.finding} ` : ""}${attack.name}`, async () => {
      const outcome = await attack.attempt();
      assert.notEqual(outcome, "succeeded", `the attack succeeded: ${attack.name}`);
    });
  }
});

// The hostile-repository suite as figures: every attack of test/unit/hostile, tried once and counted.
// BENCH security attacks=N succeeded=N asked=N refused=N (the goal: succeeded=0).
import { allAttacks, type Outcome } from "../test/unit/hostile/attack";

async function main(): Promise<void> {
  const counts: Record<Outcome, number> = { succeeded: 0, asked: 0, refused: 0 };
  const attacks = allAttacks();
  for (const attack of attacks) {
    const outcome = await attack.attempt().catch((e: unknown) => {
      console.error(`the attack "${attack.name}" could not be tried: ${String(e)}`);
      return "succeeded" as const;
    });
    counts[outcome]++;
    if (outcome === "succeeded") console.error(`succeeded: ${attack.name}`);
  }
  console.log(
    `BENCH security attacks=${attacks.length} succeeded=${counts.succeeded} asked=${counts.asked} refused=${counts.refused}`,
  );
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);

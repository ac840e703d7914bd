/** Figures the integration tests measure for benchmarks; the harness writes them to its results file. */
export const metrics: Record<string, number> = {};

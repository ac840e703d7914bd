// Types of runtime.mjs for the TypeScript tests.
export const RUNTIME: string[];
export function hasRuntime(dir: string): boolean;
export function ensureRuntime(dir: string, options?: { quiet?: boolean }): void;

// Types of schema.mjs for the TypeScript tests.
export const STRING_CAP: number;
export const ITEMS_CAP: number;
export function requestedSchema(request: unknown): Record<string, unknown> | undefined;
export function forGrammar(schema: unknown, root?: unknown): Record<string, unknown>;
export function demoSchema(request: unknown): Record<string, unknown> | undefined;

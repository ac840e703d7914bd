// Types of grammar.mjs for the TypeScript tests.
export const WORDS: string[];
export const LABEL: string;
export function answerGrammar(): string;
export function textOf(content: unknown): string;
export function plannedCall(request: unknown): { name: string; grammar: string } | undefined;
export function argumentsGrammar(schema: unknown, path: string): string | undefined;

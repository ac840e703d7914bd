// Types of make-gguf.mjs for the TypeScript tests.
export function makeGguf(path: string): string;

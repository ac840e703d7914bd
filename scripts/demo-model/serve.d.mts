// Types of serve.mjs for the TypeScript tests.
export const DEMO_MODEL: string;
export function serveDemo(options: {
  dir: string;
  modelPath: string;
  port?: number;
}): Promise<{ url: string; stop: () => Promise<void> }>;

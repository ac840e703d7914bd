// Types of bundles.mjs for the TypeScript test that builds dist/extension.js.
import type { BuildOptions } from "esbuild";

export function commonOptions(production: boolean): BuildOptions;
export function nodeOptions(production: boolean): BuildOptions;
export function extensionBundle(production: boolean): BuildOptions;

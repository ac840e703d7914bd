/** When the extension's bundle began to load: imported first, so activation time includes every import. */
export const loaded = performance.now();

/**
 * Text made safe to read in an approval question: characters that change how the rest is shown
 * or that show as nothing — controls, bidirectional overrides and isolates, zero-width and tag
 * characters — are written as `⟦U+202E⟧`, so `rm -rf ~ #⟦U+202E⟧` cannot pass for something else.
 */

/**
 * The characters made visible: C0 and C1 controls (tab and newline apart), bidi marks, embeddings,
 * overrides and isolates, zero-width characters, invisible operators, the soft hyphen, interlinear
 * annotations and the tag characters that can smuggle hidden text.
 */
/* eslint-disable no-control-regex -- control characters are what this finds */
const HIDDEN =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\ufff9-\ufffb]|\udb40[\udc00-\udc7f]/;
/* eslint-enable no-control-regex */

/** True when `text` holds a character that `visible` would write out. */
export function hasHidden(text: string): boolean {
  return HIDDEN.test(text);
}

/** `text` with every hidden character written as `⟦U+XXXX⟧`. */
export function visible(text: string): string {
  return text.replace(new RegExp(HIDDEN, "g"), (c) => {
    const code = c.codePointAt(0) ?? 0;
    return `⟦U+${code.toString(16).toUpperCase().padStart(4, "0")}⟧`;
  });
}

/**
 * The languages whose translations are in the repository and must be complete. Add a language here
 * when its `package.nls.<lang>.json` and `l10n/bundle.l10n.<lang>.json` are added; the goal is every
 * language of TARGET_LANGUAGES (complete.ts).
 */
export const SHIPPED_LANGUAGES: readonly string[] = ["de", "fr", "es", "ja", "zh-cn", "pt-br"];

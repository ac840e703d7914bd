/**
 * Translating the texts Tandem shows, the same way on both sides: a bundle maps each English text to
 * its translation (VS Code's `l10n/bundle.l10n.<lang>.json`, keyed by the English text as
 * `vscode.l10n.t` keys it), and `{0}` / `{name}` placeholders are filled after translating. The host
 * sets the bundle from `vscode.l10n.bundle` at activation; the panel sets the one the host sends it.
 * Plain code with no imports, so the panel and the Node-only core can both use it.
 */

/** English text -> translated text; a missing key shows the English. */
export type Bundle = Record<string, string>;

/** A value for a placeholder. */
export type Arg = string | number | boolean;

/** Values for `{name}` placeholders, by name. */
export type Named = Readonly<Record<string, Arg>>;

let current: Bundle = {};

/** Makes `bundle` the one `t` reads (an empty bundle: English). */
export function setBundle(bundle: Bundle | undefined): void {
  current = bundle ?? {};
}

/** The bundle `t` reads now, for handing to the panel. */
export function currentBundle(): Bundle {
  return current;
}

/** Fills `{0}`, `{1}`… from `args`, or `{name}` from one object of named values; others are left as written. */
export function format(template: string, args: readonly Arg[] | Named): string {
  return template.replace(/\{([^{}]+)\}/g, (whole, name: string) => {
    const value = isList(args) ? args[Number(name)] : Object.hasOwn(args, name) ? args[name] : undefined;
    return value === undefined ? whole : String(value);
  });
}

function isList(args: readonly Arg[] | Named): args is readonly Arg[] {
  return Array.isArray(args);
}

function isNamed(args: Arg[] | [Named]): args is [Named] {
  return args.length === 1 && typeof args[0] === "object";
}

/**
 * The text the person reads for the English `message`, in the display language, with its
 * placeholders filled. `message` must be a string literal at every call: `npm run l10n` collects the
 * calls into `l10n/bundle.l10n.json`.
 */
export function t(message: string, ...args: Arg[] | [Named]): string {
  const translated = Object.hasOwn(current, message) ? current[message] : message;
  return isNamed(args) ? format(translated, args[0]) : format(translated, args);
}

/**
 * Glob patterns as VS Code writes them (`files.exclude`, the search box), over workspace-relative
 * paths with `/`: `*` and `?` stay inside one folder name, `**` spans folders, `[...]` is a
 * character class (`[!...]` negated), `{a,b}` is a choice, and `a/**` also matches `a` itself.
 * Matching is picomatch's; this module only says how VS Code's spelling maps onto it.
 */
import picomatch from "picomatch";

/** picomatch read as VS Code reads a glob: dot files match `*`, no extglobs, no leading `!`. */
const VSCODE: picomatch.PicomatchOptions = { dot: true, noextglob: true, nonegate: true };

/** VS Code writes a negated class `[!...]`; picomatch reads `!` there as an extglob: say `[^...]`. */
function classes(glob: string): string {
  return glob.replace(/(^|[^\\])\[!/g, "$1[^");
}

/** A test of workspace-relative paths against a VS Code glob such as `src/**\/*.{ts,tsx}`. */
export function globTest(glob: string): (path: string) => boolean {
  return picomatch(classes(normalize(glob)), VSCODE);
}

/** A glob written with `\` or a leading `./` or `/`, in the form it is matched in. */
export function normalize(glob: string): string {
  let text = glob.trim().replace(/\\(?![[\]{}*?!\\])/g, "/");
  while (text.startsWith("./")) text = text.slice(2);
  text = text.replace(/^\/+/, "");
  return text === "" ? "**/*" : text;
}

/** The folder a glob starts in: its leading names that hold no pattern character ("" for the root). */
export function baseOf(glob: string): string {
  const names = normalize(glob).split("/");
  const base: string[] = [];
  for (const name of names.slice(0, -1)) {
    if (/[*?[\]{}\\]/.test(name)) break;
    base.push(name);
  }
  return base.join("/");
}

/**
 * The glob a person means when searching: a name without `/` (`*.ts`, `package.json`) matches at
 * any depth, as in the editor's search box; `./*.ts` or `/*.ts` is tied to the root.
 */
export function searchGlob(glob: string): string {
  const text = glob.trim();
  const rooted = /^\.?[\\/]/.test(text);
  const plain = normalize(text);
  return rooted || plain.includes("/") || plain.startsWith("**") ? plain : `**/${plain}`;
}

/**
 * Glob patterns as VS Code and .gitignore write them, compiled to regular expressions over
 * workspace-relative paths with `/`: `*` and `?` stay inside one folder name, `**` spans folders,
 * `[...]` is a character class, and (in VS Code globs) `{a,b}` is a choice.
 */

/** How a glob is read. */
export interface GlobOptions {
  /** `{a,b}` is a choice (VS Code); in .gitignore braces are literal. */
  braces?: boolean;
  /** A final `/**` also matches the folder itself (VS Code); in .gitignore only what is inside. */
  trailingSelf?: boolean;
}

const SPECIAL = /[.+^$()|{}[\]\\/*?]/g;

function literal(text: string): string {
  return text.replace(SPECIAL, "\\$&");
}

/** The index of the `}` that closes the `{` at `open`, or -1. */
function closing(glob: string, open: number): number {
  let depth = 0;
  for (let i = open; i < glob.length; i++) {
    const c = glob[i];
    if (c === "\\") i++;
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return i;
  }
  return -1;
}

/** The parts of a brace body split at its top-level commas. */
function choices(body: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === "\\") i++;
    else if (c === "{") depth++;
    else if (c === "}") depth--;
    else if (c === "," && depth === 0) {
      parts.push(body.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(body.slice(start));
  return parts;
}

/** The regular expression source (unanchored) of `glob`. */
export function globSource(glob: string, options: GlobOptions = {}): string {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === "*" && glob[i + 1] === "*") {
      let end = i + 2;
      while (glob[end] === "*") end++;
      const segmentStart = i === 0 || glob[i - 1] === "/";
      const segmentEnd = end === glob.length || glob[end] === "/";
      if (segmentStart && segmentEnd) {
        if (end === glob.length) {
          // `a/**` or a lone `**`: everything below (the `/` before it was already written).
          if (out.endsWith("\\/")) {
            out = out.slice(0, -2) + (options.trailingSelf ? "(?:\\/.*)?" : "\\/.*");
          } else out += ".*";
        } else {
          // `**/`: any number of folders, none included.
          out += "(?:.*\\/)?";
          end++;
        }
        i = end - 1;
        continue;
      }
      out += "[^/]*";
      i = end - 1;
    } else if (c === "*") out += "[^/]*";
    else if (c === "?") out += "[^/]";
    else if (c === "\\" && i + 1 < glob.length) out += literal(glob[++i]);
    else if (c === "[") {
      const end = glob.indexOf("]", i + 2);
      if (end < 0) {
        out += "\\[";
        continue;
      }
      let body = glob.slice(i + 1, end);
      const negated = body[0] === "!" || body[0] === "^";
      if (negated) body = body.slice(1);
      const escaped = body.replace(/[\\\]^]/g, "\\$&");
      out += negated ? `(?!\\/)[^${escaped}]` : `(?!\\/)[${escaped}]`;
      i = end;
    } else if (c === "{" && options.braces) {
      const end = closing(glob, i);
      if (end < 0) {
        out += "\\{";
        continue;
      }
      out += `(?:${choices(glob.slice(i + 1, end))
        .map((part) => globSource(part, options))
        .join("|")})`;
      i = end;
    } else out += literal(c);
  }
  return out;
}

/** A test of workspace-relative paths against a VS Code glob such as `src/**\/*.{ts,tsx}`. */
export function globTest(glob: string): (path: string) => boolean {
  const pattern = new RegExp(`^${globSource(normalize(glob), { braces: true, trailingSelf: true })}$`);
  return (path) => pattern.test(path);
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

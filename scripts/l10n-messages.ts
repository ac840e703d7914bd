/**
 * Finds every text Tandem shows through a translation call, with the TypeScript compiler: calls of
 * `vscode.l10n.t("…")` and of `t("…")` imported from src/protocol/l10n. The English bundle
 * (`l10n/bundle.l10n.json`) is made from what this finds, and a unit test compares the two.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

/** The folders whose code shows text to the person. */
export const SOURCE_FOLDERS = ["src", "webview-ui"];

/** What the calls say: the English messages, and the calls whose message is not a literal. */
export interface Messages {
  messages: string[];
  problems: string[];
}

/** Every .ts file under `folder`, in a stable order. */
export function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts") && !e.name.endsWith(".d.ts"))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/** The text of a string literal, or of literals joined with `+` (a long message over several lines); else undefined. */
function literal(node: ts.Expression): string | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isParenthesizedExpression(node)) return literal(node.expression);
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const left = literal(node.left);
    const right = literal(node.right);
    return left === undefined || right === undefined ? undefined : left + right;
  }
  return undefined;
}

/** The local names `t` has in this file when imported from the protocol's l10n module. */
function translators(file: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  for (const statement of file.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    if (!/(^|\/)protocol\/l10n$/.test(statement.moduleSpecifier.text)) continue;
    const bindings = statement.importClause?.namedBindings;
    if (bindings && ts.isNamedImports(bindings)) {
      for (const el of bindings.elements)
        if ((el.propertyName ?? el.name).text === "t") names.add(el.name.text);
    }
  }
  return names;
}

/** The English messages of the translation calls in `files`, sorted, each once. */
export function collectMessages(files: string[], root: string): Messages {
  const messages = new Set<string>();
  const problems: string[] = [];
  for (const path of files) {
    const file = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, true);
    const local = translators(file);
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node)) {
        const callee = node.expression.getText(file);
        if (local.has(callee) || callee === "vscode.l10n.t") {
          const [first] = node.arguments;
          const message = first ? literal(first) : undefined;
          if (message !== undefined) {
            messages.add(message);
          } else {
            const { line } = file.getLineAndCharacterOfPosition(node.getStart(file));
            problems.push(
              `${relative(root, path)}:${line + 1}: ${callee}() needs a string literal as its message`,
            );
          }
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return { messages: [...messages].sort(), problems };
}

/** The English bundle for the repository at `root`: each message keyed by itself. */
export function englishBundle(root: string): { bundle: Record<string, string>; problems: string[] } {
  const files = SOURCE_FOLDERS.flatMap((folder) => sourceFiles(join(root, folder)));
  const { messages, problems } = collectMessages(files, root);
  return { bundle: Object.fromEntries(messages.map((m) => [m, m])), problems };
}

/** Attributes and properties of the panel's elements that a person reads (or hears). */
const SHOWN = new Set(["text", "title", "placeholder", "aria-label", "label", "hint", "textContent"]);

/** Names shown as they are in every language. */
const NAMES = new Set(["Tandem"]);

/** Whether a literal is words a person reads: a word with a small letter, not a name. */
function isWords(text: string): boolean {
  return /[A-Za-z]*[a-z][A-Za-z]*/.test(text) && /[A-Za-z]{2,}/.test(text) && !NAMES.has(text.trim());
}

/**
 * The panel's texts written as bare literals instead of through t(): values of shown attributes in
 * the panel's element builders (`h(tag, { text: "…" })`), button labels (`button(icon, "…")`), the
 * `label`, `hint` and `detail` of any object (forms and lists describe their fields so), and
 * assignments to `.textContent`, `.title` or `.placeholder`. Each as "file:line: text".
 */
export function bareTexts(files: string[], root: string): string[] {
  const found: string[] = [];
  for (const path of files) {
    const file = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, true);
    const report = (node: ts.Node, text: string) => {
      const { line } = file.getLineAndCharacterOfPosition(node.getStart(file));
      found.push(`${relative(root, path)}:${line + 1}: ${text}`);
    };
    const bare = (node: ts.Expression | undefined): void => {
      if (!node) return;
      if (ts.isParenthesizedExpression(node)) return bare(node.expression);
      if (ts.isConditionalExpression(node)) return (bare(node.whenTrue), bare(node.whenFalse));
      if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.BarBarToken)
        return bare(node.right);
      // A shown field given as a function of the row: `hint: (a) => a.x ? "…" : "…"`.
      if (ts.isArrowFunction(node) && !ts.isBlock(node.body)) return bare(node.body);
      if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
        if (isWords(node.text)) report(node, node.text);
      } else if (ts.isTemplateExpression(node)) {
        const words = [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join(" ");
        if (isWords(words)) report(node, node.getText(file));
      }
    };
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) {
        const [, second] = node.arguments;
        if (node.expression.text === "button") bare(second);
        if (node.expression.text === "h" && second && ts.isObjectLiteralExpression(second)) {
          for (const p of second.properties) {
            if (ts.isPropertyAssignment(p) && SHOWN.has(p.name.getText(file).replace(/^["']|["']$/g, ""))) {
              bare(p.initializer);
            }
          }
        }
      }
      // Descriptions of forms and lists (`{ label: "…", hint: … }`) are shown wherever they are built.
      if (ts.isPropertyAssignment(node) && ["label", "hint", "detail"].includes(node.name.getText(file))) {
        const parent = node.parent.parent;
        if (!(
          ts.isCallExpression(parent) &&
          ts.isIdentifier(parent.expression) &&
          parent.expression.text === "h"
        ))
          bare(node.initializer);
      }
      if (
        ts.isBinaryExpression(node) &&
        node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
        ts.isPropertyAccessExpression(node.left) &&
        SHOWN.has(node.left.name.text)
      ) {
        bare(node.right);
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return found;
}

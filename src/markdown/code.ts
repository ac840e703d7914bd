// Code blocks: coloured with highlight.js core and a few languages registered one by one (the
// full build is about 1 MB), with the buttons the panel wires to copy / insert / new file.
import hljs from "highlight.js/lib/core";
import bash from "highlight.js/lib/languages/bash";
import cpp from "highlight.js/lib/languages/cpp";
import css from "highlight.js/lib/languages/css";
import diff from "highlight.js/lib/languages/diff";
import go from "highlight.js/lib/languages/go";
import java from "highlight.js/lib/languages/java";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import markdown from "highlight.js/lib/languages/markdown";
import python from "highlight.js/lib/languages/python";
import rust from "highlight.js/lib/languages/rust";
import shell from "highlight.js/lib/languages/shell";
import sql from "highlight.js/lib/languages/sql";
import typescript from "highlight.js/lib/languages/typescript";
import xml from "highlight.js/lib/languages/xml";
import yaml from "highlight.js/lib/languages/yaml";
import { escape } from "./html";
import { t } from "../protocol/l10n";

const LANGUAGES = {
  bash,
  cpp,
  css,
  diff,
  go,
  java,
  javascript,
  json,
  markdown,
  python,
  rust,
  shell,
  sql,
  typescript,
  xml,
  yaml,
};
for (const [name, language] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, language);
hljs.registerAliases(["c", "h"], { languageName: "cpp" });
hljs.registerAliases(["sh", "zsh"], { languageName: "bash" });
hljs.registerAliases(["golang"], { languageName: "go" });

/** The actions a closed code block offers; the panel reads `data-action` on the button. */
export const CODE_ACTIONS = [
  { action: "copy", label: "Copy", icon: "copy" },
  { action: "insert", label: "Insert at cursor", icon: "insert" },
  { action: "new-file", label: "Save as new file", icon: "new-file" },
] as const;

/** The language named by a fence's info string, if it is a plain name. */
export function language(info: string | undefined): string | undefined {
  const word = (info ?? "").trim().split(/\s+/)[0];
  return /^[A-Za-z0-9_+#.-]{1,32}$/.test(word) ? word.toLowerCase() : undefined;
}

function opening(lang: string | undefined, streaming: boolean): string {
  const attrs = lang ? ` data-lang="${escape(lang)}"` : "";
  return `<div class="code-block${streaming ? " streaming" : ""}"${attrs}>`;
}

/** A closed code block: highlighted when its language is registered, with its action buttons. */
export function codeBlock(text: string, info: string | undefined): string {
  const lang = language(info);
  const known = lang !== undefined && hljs.getLanguage(lang) !== undefined;
  const body = known ? hljs.highlight(text, { language: lang, ignoreIllegals: true }).value : escape(text);
  const label = lang ? `<span class="code-lang">${escape(lang)}</span>` : "";
  // Translated as the block is rendered (a module-level text would be English in every language).
  const labels = { copy: t("Copy"), insert: t("Insert at cursor"), "new-file": t("Save as new file") };
  const buttons = CODE_ACTIONS.map(
    (a) =>
      `<button type="button" class="code-action" data-action="${a.action}" title="${escape(labels[a.action])}" aria-label="${escape(labels[a.action])}">` +
      `<span class="codicon codicon-${a.icon}"></span></button>`,
  ).join("");
  const codeClass = known ? `hljs language-${escape(lang)}` : "hljs";
  return (
    `${opening(lang, false)}<div class="code-actions">${label}${buttons}</div>` +
    `<pre><code class="${codeClass}">${body}\n</code></pre></div>\n`
  );
}

/** The start of a code block still streaming: plain escaped text follows it, no colour, no actions. */
export function openCodeBlock(info: string | undefined): string {
  return `${opening(language(info), true)}<pre><code>`;
}

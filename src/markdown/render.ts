// Markdown tokens to sanitized HTML with marked: raw HTML becomes text, links and images pass the
// allow-list, code blocks are coloured and carry their actions.
import {
  Lexer,
  Parser,
  Renderer,
  getDefaults,
  type MarkedOptions,
  type Token,
  type Tokens,
  type TokensList,
} from "marked";
import { codeBlock } from "./code";
import { quickInline } from "./quick";
import { escape } from "./html";
import { safeHref, safeImage, type CommandLinks } from "./links";
import { format, t } from "../protocol/l10n";

/** Reference link definitions by normalized label, as marked keeps them. */
export type Links = TokensList["links"];

/** What a render may use beyond the Markdown itself. */
export interface RenderOptions {
  /** Command links Tandem wrote into this Markdown; without it no `command:` link is made. */
  commands?: CommandLinks;
}

class SafeRenderer extends Renderer {
  constructor(private readonly commands: CommandLinks | undefined) {
    super();
  }

  override html(token: Tokens.HTML | Tokens.Tag): string {
    if ("block" in token && token.block)
      return `<p class="raw-html">${escape(token.text.replace(/\n+$/, ""))}</p>\n`;
    return escape(token.text);
  }

  override link(token: Tokens.Link): string {
    const inner = this.parser.parseInline(token.tokens);
    const title = token.title ? ` title="${escape(token.title)}"` : "";
    const command = this.commands?.resolve(token.href);
    if (command) {
      return `<a href="${escape(command.uri)}" data-command="${escape(command.command)}"${title}>${inner}</a>`;
    }
    const href = safeHref(token.href);
    if (href === undefined) return escape(token.raw);
    return `<a href="${escape(href)}" rel="noopener noreferrer"${title}>${inner}</a>`;
  }

  override image(token: Tokens.Image): string {
    const src = safeImage(token.href);
    if (src === undefined) return escape(token.raw);
    if (!src.startsWith("data:")) return remoteImage(src, token.text);
    const title = token.title ? ` title="${escape(token.title)}"` : "";
    return `<img src="${escape(src)}" alt="${escape(token.text)}"${title}>`;
  }

  override code(token: Tokens.Code): string {
    return codeBlock(token.text, token.lang);
  }

  // A task box is a form control: without a name, a screen reader says only "checkbox".
  override checkbox(token: Tokens.Checkbox): string {
    const state = token.checked
      ? `checked="" aria-label="${escape(t("Done"))}"`
      : `aria-label="${escape(t("Not done"))}"`;
    return `<input ${state} disabled="" type="checkbox"> `;
  }
}

/**
 * A remote image as a placeholder the person clicks to load it: a request to the image's host
 * would tell it that the answer was read (and whatever the URL carries), so nothing is loaded by
 * itself. The URL travels in `data-image`, never in a `src`; the alt text stays visible.
 */
function remoteImage(url: string, alt: string): string {
  const host = new URL(url).hostname;
  const named = `<span class="image-alt">${escape(alt)}</span>`;
  const from = `<span class="image-host">${escape(host)}</span>`;
  // The sentence is translated and escaped first, then its placeholders become the two spans.
  const words = alt
    ? format(escape(t("Image {0} from {1} — click to load")), [named, from])
    : format(escape(t("Image from {0} — click to load")), [from]);
  return `<button type="button" class="remote-image" data-image="${escape(url)}" title="${escape(url)}">${words}</button>`;
}

/** The marked setup for one set of render options: lexer options and a parser to reuse. */
export class Markdown {
  readonly options: MarkedOptions;
  private readonly parser: Parser;

  constructor(render: RenderOptions = {}) {
    this.options = {
      ...getDefaults(),
      gfm: true,
      breaks: false,
      async: false,
      renderer: new SafeRenderer(render.commands),
    };
    this.parser = new Parser(this.options);
  }

  /** The top-level tokens of SRC, its reference links resolved with LINKS and its own definitions. */
  lex(src: string, links: Links = {}): TokensList {
    const lexer = new Lexer(this.options);
    Object.assign(lexer.tokens.links, links);
    return lexer.lex(src);
  }

  /** The inline tokens of SRC (the text of one paragraph, heading or cell), LINKS resolved. */
  inlineTokens(src: string, links: Links = {}): Token[] {
    // A bracket may name a reference definition, which only marked resolves.
    const quick = src.includes("[") && !empty(links) ? undefined : quickInline(src);
    if (quick) return quick;
    const lexer = new Lexer(this.options);
    Object.assign(lexer.tokens.links, links);
    return lexer.inlineTokens(src);
  }

  /** The HTML of inline TOKENS. */
  renderInline(tokens: Token[]): string {
    // The tokens a stream renders on most deltas are words, code spans and emphasis: written here
    // as marked's renderer writes them, without a pass through it.
    let html = "";
    for (const token of tokens) {
      const own = simpleHtml(token);
      if (own === undefined) return this.parser.parseInline(tokens);
      html += own;
    }
    return html;
  }

  /** The HTML of each of inline TOKENS (their concatenation is `renderInline`'s). */
  renderEach(tokens: Token[]): string[] {
    return tokens.map((token) => simpleHtml(token) ?? this.parser.parseInline([token]));
  }

  /** The HTML of one top-level token. */
  render(token: Token): string {
    return this.parser.parse([token]);
  }
}

/** TOKEN's HTML when it is plain text (no entity in it), a code span, or emphasis of plain text. */
function simpleHtml(token: Token): string | undefined {
  switch (token.type) {
    case "text":
      return "tokens" in token || (token as Tokens.Text).escaped || token.text.includes("&")
        ? undefined
        : escape(token.text);
    case "codespan":
      return `<code>${escape(token.text)}</code>`;
    case "em":
    case "strong": {
      const inner = (token as Tokens.Em).tokens;
      const text = inner.length === 1 ? simpleHtml(inner[0]) : undefined;
      return text === undefined || inner[0].type !== "text"
        ? undefined
        : `<${token.type}>${text}</${token.type}>`;
    }
    default:
      return undefined;
  }
}

/** Whether LINKS defines no label. */
function empty(links: Links): boolean {
  for (const _ in links) return false;
  return true;
}

const plain = new Markdown();

/**
 * The marked setup for OPTIONS: one shared by every render without command links, so that the
 * code the engine optimized for it stays valid from one answer to the next.
 */
export function markdownFor(options: RenderOptions = {}): Markdown {
  return options.commands ? new Markdown(options) : plain;
}

/** What TOKEN's HTML depends on: its source, or a code block's text and language only. */
export function sourceOf(token: Token): string {
  if (token.type !== "code") return token.raw;
  const code = token as Tokens.Code;
  return `\0${code.lang ?? ""}\0${code.text}`;
}

/** Calls EACH for every reference definition inside TOKEN, nested ones included. */
export function definitions(token: Token, each: (def: Tokens.Def) => void): void {
  if (token.type === "def") each(token as Tokens.Def);
  if (token.type === "list")
    for (const item of (token as Tokens.List).items) for (const t of item.tokens) definitions(t, each);
  else if (token.type === "blockquote")
    for (const t of (token as Tokens.Blockquote).tokens) definitions(t, each);
}

/** Adds to LINKS the reference definitions in TOKENS that it lacks; answers their labels. */
export function define(tokens: Token[], links: Links): string[] {
  const tags: string[] = [];
  for (const token of tokens)
    definitions(token, (d) => {
      if (d.tag in links) return;
      links[d.tag] = { href: d.href, title: d.title };
      tags.push(d.tag);
    });
  return tags;
}

/** Whether TOKEN holds a reference definition, nested ones included. */
export function hasDefinition(token: Token): boolean {
  let found = false;
  definitions(token, () => (found = true));
  return found;
}

/** Markdown with CR and CRLF line ends turned into LF, as marked reads it. */
export function normalize(text: string): string {
  return text.replace(/\r\n?/g, "\n");
}

// Which URLs a rendered answer may point at. Model text can reach http, https and mailto links,
// inline raster images, and https images (shown as a placeholder the person clicks to load);
// anything else is shown as the text the model wrote.
import { randomBytes } from "node:crypto";

const LINK_SCHEMES = new Set(["http:", "https:", "mailto:"]);
const DATA_IMAGE = /^data:image\/(?:png|jpeg|gif|webp);base64,[a-z0-9+/=\s]*$/i;

/** The normalized href when DESTINATION is an absolute http, https or mailto URL; else undefined. */
export function safeHref(destination: string): string | undefined {
  const url = parse(destination);
  return url && LINK_SCHEMES.has(url.protocol) ? url.href : undefined;
}

/** The normalized URL when SOURCE is an https URL or a base64 PNG, JPEG, GIF or WebP data URL. */
export function safeImage(source: string): string | undefined {
  const trimmed = source.trim();
  if (DATA_IMAGE.test(trimmed)) return trimmed.replace(/\s+/g, "");
  const url = parse(trimmed);
  return url && url.protocol === "https:" ? url.href : undefined;
}

function parse(text: string): URL | undefined {
  try {
    return new URL(text.trim());
  } catch {
    return undefined;
  }
}

/** A command Tandem may link to: only its own commands. */
export type TandemCommand = `tandem.${string}`;

/** A command link as rendered: the `command:` URI for the editor and the command's name. */
export interface CommandTarget {
  uri: string;
  command: TandemCommand;
}

/**
 * Command links that Tandem itself puts into Markdown it renders (an "open file" link under a
 * tool call, say). `add` gives an opaque href made with a random secret; only hrefs made by this
 * object become `command:` links, so a model cannot write one: it never sees the secret, and a
 * `command:` URI in model text is refused like any other unknown scheme.
 */
export class CommandLinks {
  private readonly prefix = `tandem-command:${randomBytes(16).toString("hex")}/`;
  private readonly targets: CommandTarget[] = [];

  /** The href to write in Markdown for a link that runs COMMAND with ARGS (JSON-serialisable). */
  add(command: TandemCommand, args: readonly unknown[] = []): string {
    if (!/^tandem\.[A-Za-z0-9_.-]+$/.test(command)) throw new Error(`not a Tandem command: ${command}`);
    const query = args.length ? `?${encodeURIComponent(JSON.stringify(args))}` : "";
    this.targets.push({ uri: `command:${command}${query}`, command });
    return `${this.prefix}${this.targets.length - 1}`;
  }

  /** The command behind HREF when this object made it; undefined otherwise. */
  resolve(href: string): CommandTarget | undefined {
    if (!href.startsWith(this.prefix)) return undefined;
    const index = href.slice(this.prefix.length);
    return /^\d+$/.test(index) ? this.targets[Number(index)] : undefined;
  }
}

/**
 * The webview harness: builds the panel bundle with esbuild (as the extension's build does), serves
 * the page `panelHtml` makes from 127.0.0.1 under its real CSP, and opens it in Debian's Chromium
 * with a host stub in place of VS Code's webview API.
 */
import { copyFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, resolve } from "node:path";
import { randomBytes } from "node:crypto";
import * as esbuild from "esbuild";
import { chromium, type Browser, type Page } from "playwright-core";
import { chromiumArgs, chromiumPath, requireChromium } from "../../scripts/vscode.mjs";
import type { HostMessage, PanelMessage } from "../../src/protocol/messages";
import { panelHtml } from "../../src/vscode/panel-page";
import type { Bundle } from "../../src/protocol/l10n";
import { THEMES, type Theme } from "./themes";

const root = resolve(import.meta.dirname, "../..");
/** Where the harness writes the bundle and the page (git-ignored). */
export const ARTIFACTS = join(root, ".artifacts");
const OUT = join(ARTIFACTS, "webview");
const SCREENSHOTS = join(ARTIFACTS, "screenshots");

let built: Promise<void> | undefined;

/** Bundles webview-ui/main.ts (and its stylesheet) as the extension's build does, once per process. */
export function build(): Promise<void> {
  built ??= (async () => {
    await mkdir(OUT, { recursive: true });
    await esbuild.build({
      entryPoints: { webview: join(root, "webview-ui/main.ts") },
      outdir: OUT,
      bundle: true,
      platform: "browser",
      format: "iife",
      target: "es2022",
      minify: false,
      logLevel: "warning",
    });
    const codicons = join(root, "node_modules/@vscode/codicons/dist");
    await copyFile(join(codicons, "codicon.css"), join(OUT, "codicon.css"));
    await copyFile(join(codicons, "codicon.ttf"), join(OUT, "codicon.ttf"));
  })();
  return built;
}

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".ttf": "font/ttf",
};

/** Serves the built files and, at `/`, a fresh page with its own nonce (and the language's bundle, if any). */
async function serve(
  l10n: { language?: string; bundle?: Bundle } = {},
): Promise<{ server: Server; origin: string }> {
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://127.0.0.1").pathname;
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    if (path === "/") {
      const html = panelHtml({
        cspSource: origin,
        nonce: randomBytes(18).toString("base64"),
        scriptUri: `${origin}/webview.js`,
        styleUri: `${origin}/webview.css`,
        codiconUri: `${origin}/codicon.css`,
        title: "Tandem",
        ...l10n,
      });
      response.writeHead(200, { "content-type": TYPES[".html"] }).end(html);
      return;
    }
    // Chromium asks every origin for a favicon; VS Code's webviews never do.
    if (path === "/favicon.ico") {
      response.writeHead(204).end();
      return;
    }
    const name = path.slice(1);
    if (!/^[\w.-]+$/.test(name) || !TYPES[extname(name)]) {
      response.writeHead(404).end();
      return;
    }
    readFile(join(OUT, name)).then(
      (body) => response.writeHead(200, { "content-type": TYPES[extname(name)] }).end(body),
      () => response.writeHead(404).end(),
    );
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** VS Code's webview API as the test plays it: posted messages and the state are kept on window. */
const STUB = `(() => {
  const w = window;
  w.__posted = [];
  w.__violations = [];
  w.__state = undefined;
  let acquired = false;
  w.acquireVsCodeApi = () => {
    if (acquired) throw new Error("acquireVsCodeApi may be called once");
    acquired = true;
    return Object.freeze({
      postMessage: (m) => { w.__posted.push(JSON.parse(JSON.stringify(m))); },
      getState: () => w.__state,
      setState: (s) => { w.__state = JSON.parse(JSON.stringify(s)); },
    });
  };
  document.addEventListener("securitypolicyviolation", (e) => {
    w.__violations.push({ directive: e.violatedDirective, blocked: e.blockedURI, sample: e.sample });
  }, true);
})();`;

/** Chromium (the same one, with the same flags, as the VS Code harness), or a clear failure when it is missing. */
export async function launch(): Promise<Browser> {
  requireChromium();
  return chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
}

/** A CSP violation the page reported. */
export interface Violation {
  directive: string;
  blocked: string;
  sample: string;
}

/** The panel open in a page, with the host's side of the conversation. */
export class Panel {
  /** Console errors and uncaught exceptions of the page. */
  readonly errors: string[] = [];

  private constructor(
    readonly page: Page,
    private readonly server: Server,
  ) {}

  /** Builds the bundle, serves the page and opens it in `browser` with the host stub. */
  static async open(
    browser: Browser,
    options: { theme?: Theme; width?: number; height?: number; language?: string; bundle?: Bundle } = {},
  ): Promise<Panel> {
    await build();
    const { server, origin } = await serve({ language: options.language, bundle: options.bundle });
    const page = await browser.newPage({
      viewport: { width: options.width ?? 420, height: options.height ?? 720 },
    });
    const panel = new Panel(page, server);
    page.on("console", (message) => {
      if (message.type() === "error") panel.errors.push(message.text());
    });
    page.on("pageerror", (error) => panel.errors.push(String(error)));
    await page.addInitScript({ content: STUB });
    await page.goto(`${origin}/`);
    await page.waitForFunction(() => (window as unknown as { __posted: PanelMessage[] }).__posted.length > 0);
    await panel.theme(options.theme ?? "dark");
    return panel;
  }

  /** Sets the theme's variables and body class, as VS Code does when the theme changes. */
  async theme(theme: Theme): Promise<void> {
    await this.page.evaluate(
      ({ theme, variables }) => {
        const html = document.documentElement;
        for (const [name, value] of Object.entries(variables)) html.style.setProperty(name, value);
        document.body.classList.remove("vscode-light", "vscode-dark", "vscode-high-contrast");
        document.body.classList.add(`vscode-${theme}`);
      },
      { theme, variables: THEMES[theme] },
    );
  }

  /** Delivers messages from the host, as VS Code does (window message events), in order. */
  async send(...messages: HostMessage[]): Promise<void> {
    await this.page.evaluate((list) => {
      for (const message of list) window.dispatchEvent(new MessageEvent("message", { data: message }));
    }, messages);
  }

  /**
   * Resolves once the page has settled after what it was sent: two frames drawn, every image of the
   * transcript done loading or failing, then one more task — so anything a payload could trigger by
   * itself has had its turn.
   */
  async settled(): Promise<void> {
    // Written as a string: the test's TypeScript loader would wrap named functions in a helper the page lacks.
    await this.page.evaluate(`(async () => {
      await new Promise((resolve) => requestAnimationFrame(resolve));
      await new Promise((resolve) => requestAnimationFrame(resolve));
      const images = [...document.querySelectorAll("img")].filter((image) => !image.complete);
      await Promise.all(images.map((image) => new Promise((resolve) => {
        image.addEventListener("load", resolve, { once: true });
        image.addEventListener("error", resolve, { once: true });
      })));
      await new Promise((resolve) => setTimeout(resolve, 0));
    })()`);
  }

  /** The messages the panel posted to the host so far. */
  posted(): Promise<PanelMessage[]> {
    return this.page.evaluate(() => (window as unknown as { __posted: PanelMessage[] }).__posted);
  }

  /** The CSP violations so far. */
  violations(): Promise<Violation[]> {
    return this.page.evaluate(() => (window as unknown as { __violations: Violation[] }).__violations);
  }

  /** Saves a screenshot as .artifacts/screenshots/NAME.png and answers its path. */
  async screenshot(name: string): Promise<string> {
    await mkdir(SCREENSHOTS, { recursive: true });
    const path = join(SCREENSHOTS, `${name}.png`);
    await this.page.evaluate(() => document.fonts.ready);
    await this.page.screenshot({ path });
    return path;
  }

  async close(): Promise<void> {
    await this.page.close();
    await new Promise<void>((done) => this.server.close(() => done()));
  }
}

/** The panels of a suite, opened in one Chromium launched for it. */
export interface Panels {
  /** Opens a panel (see `Panel.open`); it is closed after the test, or after the suite. */
  open(options?: {
    theme?: Theme;
    width?: number;
    height?: number;
    language?: string;
    bundle?: Bundle;
  }): Promise<Panel>;
}

/**
 * Launches Chromium before the calling suite and closes it after; the panels it opens are closed
 * after each test, or when CLOSE is "suite", after the suite (for a suite that shares one panel).
 */
export function chromiumPanels(close: "test" | "suite" = "test"): Panels {
  let browser: Browser | undefined;
  const open: Panel[] = [];
  const closeAll = async () => {
    for (const panel of open.splice(0)) await panel.close();
  };
  before(async () => {
    browser = await launch();
  });
  if (close === "test") afterEach(closeAll);
  after(async () => {
    await closeAll();
    await browser?.close();
  });
  return {
    async open(options) {
      if (!browser) throw new Error("the browser is launched before the suite's tests");
      const panel = await Panel.open(browser, options);
      open.push(panel);
      return panel;
    },
  };
}

/** Writes a text artifact (a log a failing test leaves behind). */
export async function artifact(name: string, text: string): Promise<void> {
  await mkdir(ARTIFACTS, { recursive: true });
  await writeFile(join(ARTIFACTS, name), text);
}

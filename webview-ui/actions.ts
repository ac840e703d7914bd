/**
 * The buttons and links inside rendered blocks, wired once by event delegation: the host's renderer
 * marks code-block buttons with `data-action`; every link goes to the host, which decides.
 */
import type { CodeAction } from "../src/protocol/messages";
import type { PanelBridge } from "./bridge";
import { PLACEHOLDER, loadImage } from "./images";

const ACTIONS: ReadonlySet<string> = new Set<CodeAction>(["copy", "insert", "new-file"]);

/** The code a code-block button acts on, and its language. */
function codeOf(button: Element): { code: string; language: string } {
  const block = button.closest(".code-block") ?? button.closest(".block") ?? button.parentElement;
  const code = block?.querySelector("pre code") ?? block?.querySelector("pre");
  const marked = button.closest("[data-lang]")?.getAttribute("data-lang") ?? "";
  const fromClass = /(?:^|\s)(?:language|lang)-([\w+#.-]+)/.exec(code?.className ?? "")?.[1] ?? "";
  return { code: code?.textContent ?? "", language: marked || fromClass };
}

/** Listens for clicks in `root` on code-block buttons, remote images' placeholders and links. */
export function wireBlocks(root: HTMLElement, host: PanelBridge): void {
  root.addEventListener("click", (event) => {
    const target = event.target instanceof Element ? event.target : null;
    if (!target?.closest(".markdown")) return;
    // A remote image's placeholder (even inside a link) loads its image and follows nothing.
    const image = target.closest<HTMLElement>(PLACEHOLDER);
    if (image) {
      event.preventDefault();
      loadImage(image, host);
      return;
    }
    const actionButton = target.closest("[data-action]");
    if (actionButton) {
      const action = actionButton.getAttribute("data-action") ?? "";
      event.preventDefault();
      if (!ACTIONS.has(action)) return;
      const { code, language } = codeOf(actionButton);
      host.post({ type: "code", action: action as CodeAction, code, language });
      return;
    }
    const link = target.closest("a");
    if (link) {
      event.preventDefault();
      const href = link.getAttribute("href") ?? "";
      if (href && !href.startsWith("#")) host.post({ type: "openLink", url: href });
    }
  });
}

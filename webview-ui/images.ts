/**
 * Remote images in answers. The host's renderer shows each as a placeholder button that names its
 * host and carries the URL in `data-image`; the panel loads nothing by itself (its CSP allows no
 * remote image). A click asks the host, which fetches the image through its guarded fetch and
 * answers a data URL; the panel then shows it in place of every placeholder of that URL, and again
 * whenever a block is rendered anew.
 */
import type { ImageLoaded } from "../src/protocol/messages";
import { h } from "./dom";
import type { PanelBridge } from "./bridge";
import { t } from "../src/protocol/l10n";
import { hostOf } from "../src/protocol/hostname";

/** The selector of a placeholder. */
export const PLACEHOLDER = "button.remote-image[data-image]";
/** The only data URLs shown: base64 PNG, JPEG, GIF or WebP, as the host sends them. */
const RASTER = /^data:image\/(?:png|jpeg|gif|webp);base64,[A-Za-z0-9+/=]*$/;

/** What became of an image the person asked for. */
type Asked = { state: "loading" } | { state: "loaded"; data: string } | { state: "failed"; error: string };

const asked = new Map<string, Asked>();

/** The host named in a placeholder, else the URL's (the URL itself when it has none). */
function hostNamed(placeholder: Element, url: string): string {
  return placeholder.querySelector(".image-host")?.textContent || (hostOf(url) ?? url);
}

/** Shows in PLACEHOLDER what became of its image. */
function show(placeholder: HTMLElement, url: string, what: Asked): void {
  const host = hostNamed(placeholder, url);
  const alt = placeholder.querySelector(".image-alt")?.textContent ?? "";
  if (what.state === "loaded") {
    const image = h("img", { alt, title: url, class: "loaded-image" });
    image.src = what.data;
    placeholder.replaceWith(image);
    return;
  }
  placeholder.dataset.state = what.state;
  placeholder.setAttribute("aria-busy", String(what.state === "loading"));
  placeholder.textContent =
    what.state === "loading"
      ? alt
        ? t("Loading the image “{0}” from {1}…", alt, host)
        : t("Loading the image from {0}…", host)
      : alt
        ? t("The image “{0}” from {1} could not be loaded: {2}. Click to try again.", alt, host, what.error)
        : t("The image from {0} could not be loaded: {1}. Click to try again.", host, what.error);
  // The host and alt stay findable for the next answer, as the renderer wrote them.
  placeholder.append(
    h("span", { class: "image-host", hidden: true, text: host }),
    h("span", { class: "image-alt", hidden: true, text: alt }),
  );
}

/** Shows what is known of every placeholder in ROOT (a block rendered anew, say). */
export function restoreImages(root: ParentNode): void {
  for (const placeholder of root.querySelectorAll<HTMLElement>(PLACEHOLDER)) {
    const url = placeholder.dataset.image ?? "";
    const what = asked.get(url);
    if (what) show(placeholder, url, what);
  }
}

/** The person clicked PLACEHOLDER: asks the host for its image (once while it loads). */
export function loadImage(placeholder: HTMLElement, host: PanelBridge): void {
  const url = placeholder.dataset.image ?? "";
  if (!/^https:\/\//i.test(url) || asked.get(url)?.state === "loading") return;
  asked.set(url, { state: "loading" });
  restoreImages(document);
  host.post({ type: "loadImage", url });
}

/** The host's answer: the image, or why not, shown wherever its placeholders are. */
export function imageAnswered(message: ImageLoaded): void {
  if (asked.get(message.url)?.state !== "loading") return;
  const what: Asked =
    "data" in message && RASTER.test(message.data)
      ? { state: "loaded", data: message.data }
      : {
          state: "failed",
          error: "error" in message ? message.error : t("it is not an image the panel shows"),
        };
  asked.set(message.url, what);
  restoreImages(document);
}

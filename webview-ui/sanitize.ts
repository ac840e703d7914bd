/**
 * The panel's own pass over every HTML block, after the host's: DOMPurify with only the tags and
 * attributes the host's Markdown renderer makes, so a renderer bug cannot become script in the panel.
 */
import DOMPurify from "dompurify";

// prettier-ignore
const TAGS = [
  "a", "p", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "blockquote", "pre", "code",
  "span", "div", "em", "strong", "b", "i", "del", "s", "sup", "sub", "kbd", "table", "thead", "tbody",
  "tr", "th", "td", "img", "input", "button",
];
// prettier-ignore
const ATTRIBUTES = [
  "href", "src", "alt", "title", "class", "align", "start", "type", "checked", "disabled", "colspan", "rowspan",
  "rel", "data-action", "data-lang", "data-image", "aria-label", "aria-hidden",
];
/** Links the panel may follow; the host checks again before it opens one. */
const LINK = /^(?:https?:|mailto:|vscode:|command:tandem\.|#)/i;
/**
 * Inline raster images only: a remote image is a placeholder whose URL is in `data-image`, loaded
 * through the host when the person clicks it (and the CSP allows no remote image anyway).
 */
const IMAGE = /^data:image\/(?:png|gif|jpeg|webp);base64,/i;
/** The URL a remote image's placeholder may carry. */
const REMOTE_IMAGE = /^https:\/\//i;
const ACTIONS: ReadonlySet<string> = new Set(["copy", "insert", "new-file"]);

let instance: ReturnType<typeof DOMPurify> | undefined;

/** DOMPurify bound to this window with the panel's hooks, made on first use. */
function purifier(): ReturnType<typeof DOMPurify> {
  if (instance) return instance;
  const purify = DOMPurify(window);
  // DOMPurify's own URI check still runs after this hook; the hook narrows links and images further.
  purify.addHook("uponSanitizeAttribute", (node, data) => {
    const value = data.attrValue.trim();
    if (data.attrName === "href") data.keepAttr = LINK.test(value);
    else if (data.attrName === "src") data.keepAttr = node.nodeName === "IMG" && IMAGE.test(value);
    else if (data.attrName === "data-action") data.keepAttr = ACTIONS.has(value);
    else if (data.attrName === "data-image")
      data.keepAttr = node.nodeName === "BUTTON" && REMOTE_IMAGE.test(value);
    else if (data.attrName === "type") data.keepAttr = value === "checkbox" || value === "button";
  });
  purify.addHook("afterSanitizeAttributes", (node) => {
    // A task-list box shows a state; it is never a control the person can change or submit.
    if (node.nodeName === "INPUT") {
      if (node.getAttribute("type") !== "checkbox") node.remove();
      else node.setAttribute("disabled", "");
    }
    if (node.nodeName === "BUTTON") node.setAttribute("type", "button");
    if (node.nodeName === "A") node.removeAttribute("target");
  });
  instance = purify;
  return purify;
}

/**
 * The HTML of one block, as the panel will let it into the DOM. HTML that parses to a document
 * without a body (a `<frameset>` takes the body's place) leaves nothing to show: DOMPurify then
 * answers null, whatever its types say, and the block is empty rather than an error that stops the
 * transcript from drawing the items around it.
 */
export function purified(html: string): DocumentFragment {
  const fragment: DocumentFragment | null = purifier().sanitize(html, {
    ALLOWED_TAGS: TAGS,
    ALLOWED_ATTR: ATTRIBUTES,
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
    FORBID_TAGS: [
      "style",
      "form",
      "svg",
      "math",
      "iframe",
      "object",
      "embed",
      "template",
      "textarea",
      "select",
    ],
    FORBID_ATTR: ["style", "id", "name", "formaction", "action"],
    RETURN_DOM_FRAGMENT: true,
  });
  return fragment ?? document.createDocumentFragment();
}

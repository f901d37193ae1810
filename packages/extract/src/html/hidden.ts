const HIDDEN_STYLE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*(?:hidden|collapse))/i;

const NOTHING_OPENED: ReadonlySet<string> = new Set();
const COLLAPSED_PANEL_CLASS = /collapse|expander|accordion|tab-pane|faq/i;

/**
 * True for an element no reader sees, as far as its own markup tells: the `hidden` attribute or
 * an inline `display:none` / `visibility:hidden|collapse` — unless a control earlier on the page
 * names it as what it opens (its id among `opened`, `noteOpenedPanels`), it is a tab's panel
 * (WAI-ARIA's `tabpanel`, which the page shows one at a time) or its class names a collapsed panel
 * (`COLLAPSED_PANEL_CLASS`: Chakra's `chakra-collapse`, Amazon's `a-expander-content`, a
 * `faq__answer`, Bootstrap's `tab-pane`, whose button names no id or an id inside it): a
 * collapsed accordion's answer, a "show more" section, the same instructions for another
 * language, which a reader opens with a click and a search engine reads. Stylesheets are not
 * applied (only `vge` renders pages), so text hidden by a class is not detected here. Every method
 * that reads markup uses this one rule.
 */
export function isHiddenElement(attribs: Readonly<Record<string, string>>, opened: ReadonlySet<string> = NOTHING_OPENED): boolean {
  const style = attribs.style;
  const hidden = attribs.hidden !== undefined || (style !== undefined && HIDDEN_STYLE.test(style));
  return hidden && !isCollapsedPanel(attribs, opened);
}

/** Whether a hidden element is a panel a reader opens (see `isHiddenElement`): asked only of hidden elements, as every element's start tag passes here. */
function isCollapsedPanel(attribs: Readonly<Record<string, string>>, opened: ReadonlySet<string>): boolean {
  return (
    (attribs.id !== undefined && opened.has(attribs.id)) ||
    attribs.role?.trim().toLowerCase() === 'tabpanel' ||
    (attribs.class !== undefined && COLLAPSED_PANEL_CLASS.test(attribs.class))
  );
}

/** Adds to `opened` the ids of the elements an element says it opens and closes (WAI-ARIA's `aria-controls`, on an accordion's or a disclosure's button). */
export function noteOpenedPanels(attribs: Readonly<Record<string, string>>, opened: Set<string>): void {
  const controls = attribs['aria-controls'];
  if (controls !== undefined) for (const id of controls.split(/\s+/)) if (id !== '') opened.add(id);
}

/** Types a browser displays inside an `<object>` itself: images, SVG, PDF and HTML documents. */
const DISPLAYED_TYPE = /^\s*(?:image\/|text\/html|application\/(?:pdf|xhtml\+xml))/i;
/** The same, told by the extension of the object's `data` address. */
const DISPLAYED_DATA = /\.(?:pdf|svgz?|png|jpe?g|gif|webp|avif|html?|xhtml)(?:[?#]|$)/i;

/**
 * True for an `<object>` a browser displays itself (an image, an SVG, a PDF, an HTML document), so
 * that its fallback content is never seen. Plugins are gone: the fallback of any other object (a
 * Flash video player, a Java applet) is what the page shows, and a video's caption often sits there.
 */
function isDisplayedObject(attribs: Readonly<Record<string, string>>): boolean {
  return DISPLAYED_TYPE.test(attribs.type ?? '') || DISPLAYED_DATA.test(attribs.data ?? '');
}

/**
 * True for an element whose content is no text a reader sees: one of `tags` (a DOM's set of
 * non-text elements: `NOT_TEXT_TAGS`, `SKIPPED_TAGS`) or an object a browser displays itself.
 * Both DOMs ask this one question.
 */
export function showsNoText(tag: string, attribs: Readonly<Record<string, string>>, tags: ReadonlySet<string>): boolean {
  return tags.has(tag) || (tag === 'object' && isDisplayedObject(attribs));
}

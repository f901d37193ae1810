/**
 * Open elements that a start tag ends, as a browser's tree construction decides it (HTML Standard,
 * "in body", "in row" and "in cell" insertion modes): `<p>`, `<li>` and table cells are often left
 * unclosed, and a browser closes them at the next paragraph, list item or cell even when inline
 * elements (`<font>`, `<b>`) are still open inside them. htmlparser2 closes them only when they are
 * the innermost open element, so `<p><font>one<p>two` nests the second paragraph inside the first,
 * and a page of such paragraphs becomes one deep chain instead of a row of siblings. Both parsers of
 * markup (`buildBlockTree`, `buildDom`) apply this rule before opening an element.
 *
 * Left out: a `<table>` closes an open paragraph only outside quirks mode, which the old pages that
 * leave paragraphs open are in, so this rule never closes one for it (htmlparser2 still does when
 * the paragraph is the innermost open element).
 */

/** Start tags that close an open `<p>` in button scope. */
const CLOSES_PARAGRAPH: ReadonlySet<string> = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'center',
  'details',
  'dialog',
  'dir',
  'div',
  'dl',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'header',
  'hgroup',
  'main',
  'menu',
  'nav',
  'ol',
  'p',
  'search',
  'section',
  'summary',
  'ul',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'pre',
  'listing',
  'form',
  'hr',
  'li',
  'dd',
  'dt',
  'xmp',
  'plaintext',
]);

/** Elements that end the search for an open `<p>` ("button scope"). */
const BUTTON_SCOPE: ReadonlySet<string> = new Set(['html', 'table', 'td', 'th', 'caption', 'marquee', 'object', 'template', 'applet', 'button']);

/** Elements that end the search for an open list item (HTML's "special" elements but address, div and p). */
const LIST_ITEM_SCOPE: ReadonlySet<string> = new Set([
  'applet',
  'area',
  'article',
  'aside',
  'base',
  'basefont',
  'bgsound',
  'blockquote',
  'body',
  'br',
  'button',
  'caption',
  'center',
  'col',
  'colgroup',
  'dd',
  'details',
  'dir',
  'dl',
  'dt',
  'embed',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'frame',
  'frameset',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'head',
  'header',
  'hgroup',
  'hr',
  'html',
  'iframe',
  'img',
  'input',
  'li',
  'link',
  'listing',
  'main',
  'marquee',
  'menu',
  'meta',
  'nav',
  'noembed',
  'noframes',
  'noscript',
  'object',
  'ol',
  'param',
  'plaintext',
  'pre',
  'script',
  'search',
  'section',
  'select',
  'source',
  'style',
  'summary',
  'table',
  'tbody',
  'td',
  'template',
  'textarea',
  'tfoot',
  'th',
  'thead',
  'title',
  'tr',
  'track',
  'ul',
  'wbr',
  'xmp',
]);

/** Elements that end the search for an open cell or row ("table scope"). */
const TABLE_SCOPE: ReadonlySet<string> = new Set(['html', 'table', 'template']);

/** How a parser shows its open elements to this rule: each one's tag and the one it sits in. */
export interface OpenElements<N> {
  tagOf(node: N): string;
  parentOf(node: N): N | null;
}

/**
 * The outermost open element that the start tag `tag` closes, with everything inside it, given
 * the innermost open element; null when it closes none. A `<li>` closes an open `<li>` (a `<dd>` or
 * `<dt>` an open `<dd>` or `<dt>`), a `<td>` or `<th>` an open cell of the same table, a `<tr>` an
 * open row of the same table, and every block-level start tag an open `<p>`.
 */
export function elementClosedBy<N>(tag: string, innermost: N | null, open: OpenElements<N>): N | null {
  let closed: N | null = null;
  if (tag === 'li') closed = openListItem(innermost, open, (name) => name === 'li');
  else if (tag === 'dd' || tag === 'dt') closed = openListItem(innermost, open, (name) => name === 'dd' || name === 'dt');
  else if (tag === 'td' || tag === 'th') closed = openInTable(innermost, open, (name) => name === 'td' || name === 'th', 'tr');
  else if (tag === 'tr') closed = openInTable(innermost, open, (name) => name === 'tr', null);
  if (CLOSES_PARAGRAPH.has(tag)) {
    const paragraph = openParagraph(closed ? open.parentOf(closed) : innermost, open);
    if (paragraph) closed = paragraph;
  }
  return closed;
}

function openParagraph<N>(from: N | null, open: OpenElements<N>): N | null {
  for (let node = from; node; node = open.parentOf(node)) {
    const name = open.tagOf(node);
    if (name === 'p') return node;
    if (BUTTON_SCOPE.has(name)) return null;
  }
  return null;
}

function openListItem<N>(from: N | null, open: OpenElements<N>, isItem: (name: string) => boolean): N | null {
  for (let node = from; node; node = open.parentOf(node)) {
    const name = open.tagOf(node);
    if (isItem(name)) return node;
    if (LIST_ITEM_SCOPE.has(name) && name !== 'address' && name !== 'div' && name !== 'p') return null;
  }
  return null;
}

/** The nearest open element `isTarget` accepts inside the current table; `stop` (a row, for cells) ends the search. */
function openInTable<N>(from: N | null, open: OpenElements<N>, isTarget: (name: string) => boolean, stop: string | null): N | null {
  for (let node = from; node; node = open.parentOf(node)) {
    const name = open.tagOf(node);
    if (isTarget(name)) return node;
    if (name === stop || TABLE_SCOPE.has(name)) return null;
  }
  return null;
}

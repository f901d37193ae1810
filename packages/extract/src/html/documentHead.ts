/** Start tags a browser ignores in the head: a page pasted after another page's head repeats them. */
const IGNORED_IN_HEAD: ReadonlySet<string> = new Set(['html', 'head']);

/** Elements that belong in a document's head (HTML Standard, tree construction, the "in head" insertion mode). */
const HEAD_CONTENT_TAGS: ReadonlySet<string> = new Set([
  'base',
  'basefont',
  'bgsound',
  'link',
  'meta',
  'title',
  'noscript',
  'noframes',
  'style',
  'script',
  'template',
]);

/** HTML's white space (not Unicode's: a no-break space is text). */
const NOT_WHITE_SPACE = /[^\t\n\f\r ]/;

/**
 * Where the head ends when a page omits both `</head>` and `<body>` (HTML allows it). While the
 * head is the innermost open element, a browser ends it at the first start tag of an element that
 * does not belong in a head, or at the first text that is not white space, and that element or
 * text opens the implied body. htmlparser2 only knows that `<body>` closes the head, so without
 * this rule such a page keeps everything under `head`, which every reader skips. Both parsers of
 * markup (`buildBlockTree`, `buildDom`) apply it.
 */
export function startTagEndsHead(tag: string): boolean {
  return !HEAD_CONTENT_TAGS.has(tag) && !IGNORED_IN_HEAD.has(tag);
}

/**
 * True for `<html>` and `<head>` read while the head is the innermost open element: a browser
 * ignores them, and the end tag of either ends the head. htmlparser2 nests them instead, so a
 * parser keeps them as transparent elements and ends the head at their end tag.
 */
export function isIgnoredInHead(tag: string): boolean {
  return IGNORED_IN_HEAD.has(tag);
}

/** The same rule for text read while the head is the innermost open element. */
export function textEndsHead(text: string): boolean {
  return NOT_WHITE_SPACE.test(text);
}

import { Tokenizer, type TokenizerCallbacks } from 'htmlparser2';
import LinkHeader from 'http-link-header';

/** What the crawler reads of a page besides its body: where it links, and what it asks of robots. */
export interface PageLinks {
  /** `href`s of `<a>` and `<area>`, resolved against the page's base, in document order, without repeats. */
  links: string[];
  /** `<link rel="canonical">`, resolved; null when the page names none. */
  canonical: string | null;
  /** `<meta name="robots" content="nofollow">` (or `none`): its links are not followed. */
  nofollow: boolean;
  /** `<meta name="robots" content="noindex">` (or `none`): it is not indexed. */
  noindex: boolean;
}

/** Links read per page; past this a page is a link farm, and the rest are not followed. */
export const MAX_LINKS_PER_PAGE = 5000;

/**
 * Reads a page's links with htmlparser2's tokenizer alone — no element stack — so the work is
 * linear in the page's length whatever its nesting (the full parser's stack handling made a
 * 100,000-deep page take tens of seconds). Only start tags and their attributes are looked at;
 * script and style contents are raw text to the tokenizer, so links inside them are not links.
 */
export function readLinks(html: string, pageUrl: string): PageLinks {
  let base = pageUrl;
  let baseSeen = false;
  const hrefs: string[] = [];
  let canonical: string | null = null;
  const robots: string[] = [];

  let tag = '';
  let attributes: Record<string, string> = {};
  let attributeName = '';
  let attributeValue = '';
  const endTag = () => {
    if ((tag === 'a' || tag === 'area') && attributes.href !== undefined) hrefs.push(attributes.href);
    else if (tag === 'base' && !baseSeen && attributes.href !== undefined) {
      baseSeen = true;
      base = resolve(attributes.href, pageUrl) ?? pageUrl;
    } else if (tag === 'link' && canonical === null && attributes.href !== undefined && /(?:^|\s)canonical(?:\s|$)/i.test(attributes.rel ?? '')) {
      canonical = attributes.href;
    } else if (tag === 'meta' && /^(?:robots|winnowbot)$/i.test(attributes.name ?? '')) robots.push((attributes.content ?? '').toLowerCase());
    tag = '';
  };
  const callbacks: TokenizerCallbacks = {
    onopentagname(start, end) {
      tag = html.slice(start, end).toLowerCase();
      attributes = {};
    },
    onattribname(start, end) {
      attributeName = html.slice(start, end).toLowerCase();
      attributeValue = '';
    },
    onattribdata(start, end) {
      attributeValue += html.slice(start, end);
    },
    onattribentity(codepoint) {
      attributeValue += String.fromCodePoint(codepoint);
    },
    onattribend() {
      if (tag !== '' && !(attributeName in attributes)) attributes[attributeName] = attributeValue;
    },
    onopentagend: endTag,
    onselfclosingtag: endTag,
    onclosetag() {},
    ontext() {},
    ontextentity() {},
    oncdata() {},
    oncomment() {},
    ondeclaration() {},
    onprocessinginstruction() {},
    onend() {},
  };
  const tokenizer = new Tokenizer({ decodeEntities: true }, callbacks);
  tokenizer.write(html);
  tokenizer.end();

  const seen = new Set<string>();
  const links: string[] = [];
  for (const href of hrefs) {
    if (links.length >= MAX_LINKS_PER_PAGE) break;
    const url = resolve(href, base);
    if (url && !seen.has(url)) {
      seen.add(url);
      links.push(url);
    }
  }
  const directives = robots.join(',');
  return {
    links,
    canonical: canonical === null ? null : resolve(canonical, base),
    nofollow: /\b(?:nofollow|none)\b/.test(directives),
    noindex: /\b(?:noindex|none)\b/.test(directives),
  };
}

function resolve(href: string, base: string): string | null {
  const trimmed = href.trim();
  if (trimmed === '' || /^(?:javascript|mailto|tel|data):/i.test(trimmed)) return null;
  try {
    return new URL(trimmed, base).href;
  } catch {
    return null;
  }
}

/** Longest `Link` header read: a URL (at most 2,048 characters, see `trapReason`) with room for other links. */
const MAX_LINK_HEADER = 4096;

/**
 * The canonical URL an HTTP `Link` header names (`<url>; rel="canonical"`, RFC 6596), resolved
 * against the response's URL; null when it names none. Servers send it where markup cannot say
 * it, and some CMSs send it for HTML too. A header the parser cannot read names nothing: a
 * canonical is a hint, and a page is not refused over it.
 */
export function headerCanonical(linkHeader: string | undefined, responseUrl: string): string | null {
  // The parser's cost grows faster than the header (0.4 s for 15 kB of spaces): only a header that
  // can name a canonical, and no longer than a URL and its parameters, is parsed.
  if (!linkHeader || linkHeader.length > MAX_LINK_HEADER || !/canonical/i.test(linkHeader)) return null;
  let links: LinkHeader;
  try {
    links = LinkHeader.parse(linkHeader);
  } catch {
    return null;
  }
  const [first] = links.rel('canonical');
  return first ? resolve(first.uri, responseUrl) : null;
}

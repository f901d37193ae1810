import type { ExtractedBlock } from '../result/result.js';

/** Characters a breadcrumb sets between its parts (`Home › News › Headline`). */
const SEPARATORS = ['›', '〉', '>', '»'] as const;

/** A breadcrumb's parts before the page's own are names of the site and its sections: this many characters at most. */
const MAX_CRUMB_CHARS = 30;

const HEADING = /(^|\.)H[1-6]$/;

/**
 * The part of a heading line after its breadcrumb, when the page's heading is one (`uho優活健康網 〉
 * 檢視火線新聞 〉<headline>`, an `h1.addr` whose links name the site and its section): the site's and
 * its section's names are navigation, not the article, and repeat on every page of the site. A
 * breadcrumb is two separators or more, one of `SEPARATORS` throughout, between parts that are all
 * short but the last; a line quoting with `«»` is no breadcrumb. Undefined for any other line.
 */
export function breadcrumbTail(text: string): string | undefined {
  if (text.includes('«')) return undefined;
  for (const separator of SEPARATORS) {
    const parts = text.split(separator).map((part) => part.trim());
    if (parts.length < 3) continue;
    const crumbs = parts.slice(0, -1);
    const tail = parts.at(-1) as string;
    if (tail !== '' && crumbs.every((crumb) => crumb !== '' && crumb.length <= MAX_CRUMB_CHARS)) return tail;
  }
  return undefined;
}

/** The text's heading lines with their breadcrumbs cut off (`breadcrumbTail`); other lines as they were. */
export function withoutBreadcrumbs(blocks: readonly ExtractedBlock[]): ExtractedBlock[] | undefined {
  let changed = false;
  const cut = blocks.map((block) => {
    const tail = HEADING.test(block.path) ? breadcrumbTail(block.text) : undefined;
    if (tail === undefined) return block;
    changed = true;
    return { ...block, text: tail };
  });
  return changed ? cut : undefined;
}

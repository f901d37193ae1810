import { blockLines, type TextLine } from '../html/blockLines.js';
import type { BlockTree } from '../html/blockTree.js';
import { fnv1a, terms } from '../ce/features.js';

/** Lines of fewer words are not kept: a single word ("Home", a date) says nothing of a site. */
const MIN_KEPT_WORDS = 2;
/**
 * A line on at least this share of a page type's sample pages, or of one layout's, at the same
 * path, is the site's, not a page's: FastCE's premise (what repeats across a site's pages is not
 * content), with CE's "similar on a tenth of the pages" made "identical on a fifth of them", as
 * the reader's reading is cut with it. At the same path: a recent post's headline and first
 * paragraph, which a "latest posts" box repeats on every page, are its own page's text at the
 * article's paths. A fifth, not half: sign-off lines repeat on fewer pages than the site's menus.
 * Figures: docs/evaluation.md, docs/design.md.
 */
const REPEATED_SHARE = 0.2;
/** And on at least this many: two copies of one article (two URLs) are not the site's text. */
const MIN_REPEATS = 3;

/** A line's key: the FNV-1a of its path and lower-cased words, so the template holds numbers, not page text. */
function lineKey(line: TextLine, words: readonly string[]): number {
  return fnv1a(`${line.path}\n${words.join(' ')}`);
}

/** The keys of a page's lines (of `MIN_KEPT_WORDS` or more). */
export function pageLineKeys(tree: BlockTree): Set<number> {
  const keys = new Set<number>();
  for (const line of blockLines(tree.root).lines) {
    const words = terms(line.text);
    if (words.length >= MIN_KEPT_WORDS) keys.add(lineKey(line, words));
  }
  return keys;
}

/** The keys on `REPEATED_SHARE` of the pages, and on `MIN_REPEATS` of them at least. */
function repeatedIn(pages: readonly ReadonlySet<number>[]): number[] {
  const counts = new Map<number, number>();
  for (const keys of pages) for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  const needed = Math.max(MIN_REPEATS, REPEATED_SHARE * pages.length);
  return [...counts].filter(([, count]) => count >= needed).map(([key]) => key);
}

/**
 * The keys a layout's pages repeat, and those its whole page type repeats, sorted. A layout of two
 * or three sample pages (a rarer design, a video page) cannot show by itself which lines are the
 * site's; its page type's pages can: bbc.co.uk's browser-upgrade notice, on most of its sample pages
 * across the years, was the whole reading of a video page of such a layout.
 */
export function repeatedLineKeys(layoutPages: readonly ReadonlySet<number>[], typePages: readonly ReadonlySet<number>[] = layoutPages): number[] {
  return [...new Set([...repeatedIn(typePages), ...repeatedIn(layoutPages)])].sort((a, b) => a - b);
}

/** Whether the layout's pages repeat a line, at its path (its words given when the caller has them). */
export function isRepeatedLine(line: TextLine, repeated: ReadonlySet<number>, words: readonly string[] = terms(line.text)): boolean {
  return repeated.has(lineKey(line, words));
}

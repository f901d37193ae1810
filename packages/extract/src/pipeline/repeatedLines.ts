import { blockLines } from '../blockLines.js';
import type { BlockTree } from '../blockTree.js';
import { fnv1a, terms } from '../features.js';

/**
 * Lines of fewer words are labels ("Read more", "Share this page") that an article's own text
 * repeats too; the site's boilerplate that a reader can mistake for an article is longer: a
 * browser-upgrade notice, a subscription pitch, a copyright paragraph.
 */
const MIN_LINE_WORDS = 4;
/**
 * A line on at least this share of a layout's sample pages is the site's, not a page's: FastCE's
 * premise (what repeats across a site's pages is not content), with CE's "similar on a tenth of the
 * pages" made "identical on half of them", as only the reader's reading is judged with it.
 */
const REPEATED_SHARE = 0.5;
/** And on at least this many: two copies of one article (two URLs) are not the site's boilerplate. */
const MIN_REPEATS = 3;

/** A line's key: the FNV-1a of its lower-cased words, so the template holds numbers, not page text. */
function lineKey(words: readonly string[]): number {
  return fnv1a(words.join(' '));
}

/** The keys of a page's lines long enough to be judged (`MIN_LINE_WORDS`). */
export function pageLineKeys(tree: BlockTree): Set<number> {
  const keys = new Set<number>();
  for (const line of blockLines(tree.root).lines) {
    const words = terms(line.text);
    if (words.length >= MIN_LINE_WORDS) keys.add(lineKey(words));
  }
  return keys;
}

/** The keys on `REPEATED_SHARE` of the pages, and on `MIN_REPEATS` of them at least, sorted. */
export function repeatedLineKeys(pages: readonly ReadonlySet<number>[]): number[] {
  const counts = new Map<number, number>();
  for (const keys of pages) for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  const needed = Math.max(MIN_REPEATS, REPEATED_SHARE * pages.length);
  return [...counts]
    .filter(([, count]) => count >= needed)
    .map(([key]) => key)
    .sort((a, b) => a - b);
}

/** How many of a reading's words are in lines the site repeats (each line given as its words). */
export function repeatedWords(lines: readonly (readonly string[])[], repeated: ReadonlySet<number>): number {
  let count = 0;
  for (const words of lines) if (words.length >= MIN_LINE_WORDS && repeated.has(lineKey(words))) count += words.length;
  return count;
}

import { terms } from '../ce/features.js';
import type { ExtractedBlock } from '../result/result.js';

/** The text's first lines searched for the headline: a dateline, a kicker or a byline may come first. */
const HEADLINE_LINES = 5;

/** A headline's words must be at least this share in the `<title>`, which repeats the headline and adds the site's name. */
const IN_TITLE_SHARE = 0.8;

/** And hold at least this share of the title's distinct words: fewer is a section's name, which a title repeats too. */
const MIN_TITLE_SHARE = 0.5;

/** A line longer than this is a paragraph, never a headline. */
const MAX_HEADLINE_CHARS = 300;

/**
 * The page's headline, for the search index's `title`: a search engine shows the article's own
 * headline, where the `<title>` adds the site's name and section (`… | Blue Heron Journal`), so
 * the `<title>` is kept as a field of its own. Among the main text's first `HEADLINE_LINES`, the
 * line that repeats most of the title's words (its own words nearly all in the title), else the
 * first `H1` line; without either (a listing, a page whose title names only the site) the
 * `<title>` itself, as the index had it. Only lines the extraction kept are candidates, so a
 * headline never brings boilerplate into the title.
 */
export function articleHeadline(blocks: readonly ExtractedBlock[], pageTitle: string): string {
  const first = blocks.slice(0, HEADLINE_LINES).filter((block) => block.text.length <= MAX_HEADLINE_CHARS);
  const titleWords = new Set(terms(pageTitle));
  const enough = Math.max(1, MIN_TITLE_SHARE * titleWords.size);
  let best: ExtractedBlock | undefined;
  let bestShared = 0;
  for (const block of first) {
    const words = terms(block.text);
    if (words.length === 0) continue;
    const inTitle = words.filter((word) => titleWords.has(word));
    if (inTitle.length < IN_TITLE_SHARE * words.length) continue;
    const shared = new Set(inTitle).size;
    if (shared >= enough && shared > bestShared) [best, bestShared] = [block, shared];
  }
  best ??= first.find((block) => /(^|\.)H1$/.test(block.path));
  return best?.text.trim() || pageTitle;
}

import { wordsOf } from './query.js';

/**
 * A line of the main text with fewer words than this is one a reader reads past between two
 * others: a photo's caption or credit, a dateline, a byline, a source line, a subheading. The
 * issue's short runs (headline, byline, caption-sized) are the same: fewer than 25 words.
 */
export const INTERRUPTION_MAX_WORDS = 24;

/** At most this many such lines in a row are read past (a caption and its credit; a byline and its dateline). */
export const INTERRUPTION_MAX_LINES = 2;

/**
 * Each side of a bridge keeps this many words of its line: a quoted phrase rarely runs a dozen words
 * into either side of a caption (the replay's take 3-4 a side), and the bridges cost index space:
 * over the shared datasets' gold texts they hold 0.50 (dragnet), 0.20 (daniel) and 0.26
 * (cleanportaleval) as many words as the text itself with 12, and 0.59, 0.25 and 0.34 with 16.
 */
export const BRIDGE_SIDE_WORDS = 12;

/**
 * The main text's bridges: for each line followed by one or two short lines (`INTERRUPTION_MAX_WORDS`)
 * and then another line, the first line's last words and the other line's first words, as
 * `indexedWords` writes them. Both indexes match a quoted phrase in the main text's words or inside
 * any one bridge, so a phrase a reader reads across a caption, a photo credit or a dateline between
 * two paragraphs (or between the headline and the first paragraph) is found, while the main text
 * keeps those lines for the phrases in them.
 *
 * Why: the main text keeps captions and datelines that the article's text runs past on the page,
 * and on the replayed datasets (`winnow eval --replay`, seed 1) many phrases across two
 * consecutive lines of the article that the search did not find had such lines between their
 * halves (38 of 91 on daniel, 32 of 148 on dragnet, 3 of 3 on cleanportaleval): found across-line
 * phrases rose from 0.897 to 0.927 on daniel, 0.852 to 0.877 on dragnet and 0.975 to 1.000 on
 * cleanportaleval, with inside-line and boilerplate phrases unchanged (docs/evaluation.md). A
 * bridge joins two lines that are both in the main text, so no phrase of the page's boilerplate
 * can match one that the main text did not already hold. The price is a phrase that runs past a
 * short line the page shows between its halves: it matches though it is not written so, inside the
 * same article.
 */
export function bridgesOf(mainText: string): string[] {
  const lines = mainText
    .split('\n')
    .map(wordsOf)
    .filter((words) => words.length > 0);
  const bridges: string[] = [];
  for (let from = 0; from < lines.length; from++) {
    const tail = (lines[from] as string[]).slice(-BRIDGE_SIDE_WORDS);
    for (let skipped = 1; skipped <= INTERRUPTION_MAX_LINES; skipped++) {
      const interruption = lines[from + skipped];
      const to = lines[from + skipped + 1];
      if (!interruption || !to || interruption.length > INTERRUPTION_MAX_WORDS) break;
      bridges.push([...tail, ...to.slice(0, BRIDGE_SIDE_WORDS)].join(' '));
    }
  }
  return bridges;
}

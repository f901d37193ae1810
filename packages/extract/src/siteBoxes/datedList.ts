import type { ExtractedBlock } from '../result/result.js';

/** A line opening with a day and a month's name, a year maybe, then a colon: "19 Dec 2012: 13 die in …", "1 Sep: Man City (a)". */
const DATED_ITEM = /^\s*\d{1,2}\s+\p{L}{3,10}\.?(?:\s+\d{4})?\s*:\s/u;

/** Dated items in a row from which the lines read as a box's list of events or fixtures. */
const MIN_ITEMS = 3;

/** The most words of the heading above such a list: a box's title, not a sentence of the article. */
const MAX_HEADING_WORDS = 8;

/** Punctuation that ends a sentence, in any script. */
const SENTENCE_END = /[.!?。！？]["'”’)]*$/u;

/**
 * The text without the lists of dated items (`MIN_ITEMS` lines or more in a row, each opening with a
 * day, a month's name and a colon) and the short heading right above each: a box set inside the
 * article (BBC's story-feature "India's deadly collapses" over its dates, a club's "First 12 games"
 * fixtures), boilerplate phrases the replay matched (issue 38). No gold of the seven datasets holds
 * three such lines in a row; their dated lists are written otherwise ("March 7, 2005: …", "5km -
 * 15:23"), and stay. Figures: docs/design.md.
 */
export function withoutDatedLists(blocks: readonly ExtractedBlock[]): readonly ExtractedBlock[] {
  const dropped = new Set<number>();
  let start = 0;
  for (let i = 0; i <= blocks.length; i++) {
    const block = blocks[i];
    if (block && DATED_ITEM.test(block.text)) continue;
    if (i - start >= MIN_ITEMS) {
      for (let j = start; j < i; j++) dropped.add(j);
      const heading = blocks[start - 1];
      if (heading && isHeading(heading.text)) dropped.add(start - 1);
    }
    start = i + 1;
  }
  return dropped.size === 0 ? blocks : blocks.filter((_, i) => !dropped.has(i));
}

function isHeading(text: string): boolean {
  const trimmed = text.trim();
  return trimmed.split(/\s+/).length <= MAX_HEADING_WORDS && !SENTENCE_END.test(trimmed) && !DATED_ITEM.test(trimmed);
}

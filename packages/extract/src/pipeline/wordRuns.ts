/** Words in a row that a line must share with the other reading for them to count as held. */
export const RUN = 3;
/**
 * Share of a line's words that must sit in shared runs: a paragraph with a counter or an icon's
 * text glued to it is held; a teaser that repeats an article's first sentence is not; half admitted more boilerplate than
 * it recovered. Figures: docs/evaluation.md, docs/design.md.
 */
const HELD_SHARE = 0.8;

/**
 * One reading's words as runs of `RUN` consecutive words, line breaks ignored: the two readings
 * cut a page into lines differently (a paragraph's inline span is a line of its own in one, a
 * counter or icon text glued to a paragraph in the other), so a line is not asked to occur whole,
 * only most of its words in runs the other reading also has.
 */
export class WordRuns {
  /**
   * Every run of `RUN` words, and every shorter one, space-joined (words hold no spaces, so runs of
   * different lengths never collide). The shorter ones answer short lines in constant time: searching
   * the whole text for each made a page of 80,000 one-word lines take a minute.
   */
  private readonly runs = new Set<string>();

  constructor(lines: readonly string[][]) {
    const words = lines.flat();
    for (let length = 1; length <= RUN; length++) {
      for (let i = 0; i + length <= words.length; i++) this.runs.add(words.slice(i, i + length).join(' '));
    }
  }

  /**
   * Whether `share` (`HELD_SHARE` unless told) of a line's words sit in runs this text has; a line
   * shorter than a run must occur whole (a line without words always does).
   */
  holdsMostOf(words: readonly string[], share = HELD_SHARE): boolean {
    if (words.length < RUN) return words.length === 0 || this.runs.has(words.join(' '));
    const covered = new Uint8Array(words.length);
    for (let i = 0; i + RUN <= words.length; i++) {
      if (this.runs.has(words.slice(i, i + RUN).join(' '))) covered.fill(1, i, i + RUN);
    }
    let held = 0;
    for (const word of covered) held += word;
    return held >= share * words.length;
  }
}

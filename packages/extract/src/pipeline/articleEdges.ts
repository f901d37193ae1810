import type { ExtractedBlock } from '../result/result.js';

/** Words from which a line reads as a sentence of the article (as a standfirst does in pipeline.ts), not a label or a count. */
const SENTENCE_WORDS = 8;

/** A letter of any script: a line without one is a number, a rating, a separator. */
const LETTER = /\p{L}/u;

/** A CJK character, a word of its own (a Chinese sentence has no spaces). */
const CJK_CHAR = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]/gu;

/**
 * The text without the lines that hold no letter at its edges: before its first sentence
 * (`SENTENCE_WORDS` words, each CJK character one) and after its last (issue 38: the article's
 * edges). A view or comment counter beside the headline, a vote count or a page number under the
 * last paragraph is no part of the article, and between the headline and the first paragraph it
 * breaks every phrase searched across the two. Inside the article such lines stay (a table's
 * figures, a list of scores). A text without a sentence (a listing, a gallery) is left whole.
 * Figures: docs/design.md.
 */
export function trimLetterlessEdges(blocks: readonly ExtractedBlock[]): readonly ExtractedBlock[] {
  const sentence = blocks.map((block) => isSentence(block.text));
  const first = sentence.indexOf(true);
  if (first < 0) return blocks;
  const last = sentence.lastIndexOf(true);
  const kept = blocks.filter((block, i) => (i >= first && i <= last) || LETTER.test(block.text));
  return kept.length === blocks.length ? blocks : kept;
}

function isSentence(text: string): boolean {
  return text.replace(CJK_CHAR, ' $& ').split(/\s+/).filter(Boolean).length >= SENTENCE_WORDS;
}

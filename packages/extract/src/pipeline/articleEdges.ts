import { isSameLine, pageLines } from '../html/blockLines.js';
import type { BlockTree } from '../html/blockTree.js';
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

/** A list's lines under a parent: its items, and what its items hold. */
const LIST_ITEM = /^\.(?:UL|OL)\.LI(?:\.|$)/;

/**
 * The text with the list that its last line introduces: when the text ends with a line ending in a
 * colon ("Popular Lighting Projects:", "Check out:"), the page's list right after that line, in the
 * same container, comes too (issue 38: the article's edges). Both readings drop such a list as links,
 * and a label whose list is gone is neither the article's nor anything a reader searches for.
 * Counted on the k-fold `pipeline` text before building it: of the pages whose text ended in such a
 * line, dragnet's gold goes on after it on 10 of 11 (the list), and the line is not in the gold on the
 * other; no page of daniel or cleanportaleval ends so. k-fold lcs F1 dragnet 0.97055 -> 0.97300 (10
 * pages up, none down). Figures: docs/design.md.
 */
export function withListAfterTrailingLabel(tree: BlockTree, blocks: readonly ExtractedBlock[]): readonly ExtractedBlock[] {
  const label = blocks.at(-1);
  if (!label?.text.trimEnd().endsWith(':')) return blocks;
  const lines = pageLines(tree);
  const at = lines.findIndex((line) => isSameLine(line, label));
  if (at < 0) return blocks;
  const parent = label.path.slice(0, label.path.lastIndexOf('.'));
  const list: ExtractedBlock[] = [];
  for (let i = at + 1; i < lines.length; i++) {
    const line = lines[i] as ExtractedBlock;
    if (!line.path.startsWith(parent) || !LIST_ITEM.test(line.path.slice(parent.length))) break;
    list.push(line);
  }
  return list.length === 0 ? blocks : [...blocks, ...list];
}

import { LINE_BREAK, type Block, type BlockTree } from '../html/blockTree.js';
import { nonSpaceChars } from '../html/whitespace.js';
import { commaCount, type SubtreeMeasures } from './measures.js';

/**
 * A paragraph as a reader sees it: a run of text that a line-breaking block, or two line breaks
 * in a row (`<br><br>`, the paragraph break of pages without `<p>`), separate from the text around
 * it. Text inside inline blocks (SPAN) belongs to the paragraph the span sits in.
 */
export interface Paragraph {
  /** The block whose own text the paragraph is. */
  readonly owner: Block;
  /**
   * The first block that collects the paragraph's score: the owner's parent when the owner is a
   * paragraph element of its own (its text is all it holds), else the owner, which holds the
   * paragraph beside other blocks (as Readability wraps a container's loose text in a `<p>`).
   */
  readonly scoredFrom: Block;
  /** Characters that are not white space, and commas. */
  readonly chars: number;
  readonly commas: number;
  /** Share of the paragraph's text inside links (of its owner's own text, when the owner holds several paragraphs). */
  readonly linkDensity: number;
}

/**
 * The page's paragraphs, block by block in document order (a block's own paragraphs before its
 * sub-blocks'), except those inside `excluded` subtrees. One pass over every block's items.
 */
export function paragraphsOf(tree: BlockTree, measures: SubtreeMeasures, excluded: Uint8Array): Paragraph[] {
  const paragraphs: Paragraph[] = [];
  const { blocks } = tree;
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i] as Block;
    if (excluded[i]) {
      i = block.end - 1;
      continue;
    }
    // An inline block without line-breaking blocks inside is read with the paragraph it sits in.
    if (!block.breaksLine && !measures.hasLineBlock[i] && block.parent) continue;
    collectParagraphs(block, measures, excluded, paragraphs);
  }
  return paragraphs;
}

function collectParagraphs(owner: Block, measures: SubtreeMeasures, excluded: Uint8Array, out: Paragraph[]): void {
  const runs: Array<{ chars: number; commas: number; linkChars: number; textChars: number }> = [];
  let chars = 0;
  let commas = 0;
  let inlineLinkChars = 0;
  let inlineTextChars = 0;
  let breaks = 0;
  let split = false;
  const end = (): void => {
    if (chars > 0) runs.push({ chars, commas, linkChars: inlineLinkChars, textChars: inlineTextChars });
    chars = 0;
    commas = 0;
    inlineLinkChars = 0;
    inlineTextChars = 0;
  };
  const addText = (text: string): void => {
    const count = nonSpaceChars(text);
    if (count === 0) return;
    if (breaks >= 2) {
      end();
      split = true;
    }
    breaks = 0;
    chars += count;
    commas += commaCount(text);
  };
  for (const item of owner.items) {
    if (item === LINE_BREAK) {
      breaks++;
    } else if (typeof item === 'string') {
      addText(item);
    } else if (!item.breaksLine && !measures.hasLineBlock[item.index]) {
      if (!excluded[item.index]) {
        forEachInlineText(item, excluded, addText);
        inlineLinkChars += measures.linkChars[item.index] as number;
        inlineTextChars += measures.textChars[item.index] as number;
      }
    } else {
      end();
      split = true;
      breaks = 0;
    }
  }
  end();
  const alone = !split && owner.parent !== null;
  for (const run of runs) {
    const linkChars = owner.linkChars + run.linkChars;
    const textChars = owner.textChars + run.textChars;
    const linkDensity = textChars === 0 ? 0 : Math.min(1, linkChars / textChars);
    out.push({ owner, scoredFrom: alone ? (owner.parent as Block) : owner, chars: run.chars, commas: run.commas, linkDensity });
  }
}

/** Calls `read` with every text run of an inline block's subtree, in order. Iterative. */
function forEachInlineText(block: Block, excluded: Uint8Array, read: (text: string) => void): void {
  const stack: Array<{ block: Block; next: number }> = [{ block, next: 0 }];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as { block: Block; next: number };
    if (frame.next >= frame.block.items.length) {
      stack.pop();
      continue;
    }
    const item = frame.block.items[frame.next++];
    if (typeof item === 'string') read(item);
    else if (typeof item === 'object' && !excluded[item.index]) stack.push({ block: item, next: 0 });
  }
}

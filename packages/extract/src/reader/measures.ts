import type { Block, BlockTree } from '../html/blockTree.js';
import { nonSpaceChars } from '../html/whitespace.js';

/**
 * Per-block counts over each block's whole subtree, computed once per page in two linear passes
 * (own counts in pre-order, then summed into ancestors in reverse), so every question the reader
 * asks about a block's subtree is an array lookup.
 */
export interface SubtreeMeasures {
  /** Characters of text that are not white space. */
  readonly chars: Float64Array;
  /** Characters of text inside links, white space included (`Block.linkChars`). */
  readonly linkChars: Float64Array;
  /** Of those, characters inside links to the same page (`Block.fragmentLinkChars`). */
  readonly fragmentLinkChars: Float64Array;
  /** Characters of text, white space included (`Block.textChars`), the denominator of link density. */
  readonly textChars: Float64Array;
  /** Commas of any script (Latin, Arabic, CJK full-width and ideographic). */
  readonly commas: Float64Array;
  /** `<p>` blocks, list items, images and headings. */
  readonly paragraphs: Float64Array;
  readonly listItems: Float64Array;
  readonly images: Float64Array;
  readonly inputs: Float64Array;
  /** Non-space characters inside headings (h1-h6). */
  readonly headingChars: Float64Array;
  /** True when a block has a sub-block (at any depth) that starts a line of its own. */
  readonly hasLineBlock: Uint8Array;
}

export const HEADINGS: ReadonlySet<string> = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

export function subtreeMeasures(tree: BlockTree): SubtreeMeasures {
  const n = tree.blocks.length;
  const measures = {
    chars: new Float64Array(n),
    linkChars: new Float64Array(n),
    fragmentLinkChars: new Float64Array(n),
    textChars: new Float64Array(n),
    commas: new Float64Array(n),
    paragraphs: new Float64Array(n),
    listItems: new Float64Array(n),
    images: new Float64Array(n),
    inputs: new Float64Array(n),
    headingChars: new Float64Array(n),
    hasLineBlock: new Uint8Array(n),
  };
  const inHeading = new Uint8Array(n);
  for (const block of tree.blocks) {
    const i = block.index;
    if (HEADINGS.has(block.tag) || (block.parent && inHeading[block.parent.index])) inHeading[i] = 1;
    let chars = 0;
    let commas = 0;
    for (const item of block.items) {
      if (typeof item !== 'string') continue;
      chars += nonSpaceChars(item);
      commas += commaCount(item);
    }
    measures.chars[i] = chars;
    measures.commas[i] = commas;
    measures.linkChars[i] = block.linkChars;
    measures.fragmentLinkChars[i] = block.fragmentLinkChars;
    measures.textChars[i] = block.textChars;
    measures.images[i] = block.images;
    measures.inputs[i] = block.inputs;
    if (block.tag === 'p') measures.paragraphs[i] = 1;
    if (block.tag === 'li') measures.listItems[i] = 1;
    if (inHeading[i]) measures.headingChars[i] = chars;
  }
  const sums = [
    measures.chars,
    measures.linkChars,
    measures.fragmentLinkChars,
    measures.textChars,
    measures.commas,
    measures.paragraphs,
    measures.listItems,
    measures.images,
    measures.inputs,
    measures.headingChars,
  ];
  for (let i = n - 1; i > 0; i--) {
    const block = tree.blocks[i] as Block;
    const parent = (block.parent as Block).index;
    for (const values of sums) values[parent] = (values[parent] as number) + (values[i] as number);
    if (block.breaksLine || measures.hasLineBlock[i]) measures.hasLineBlock[parent] = 1;
  }
  return measures;
}

/** Link characters over text characters of a block's subtree (0 for a block without text). */
export function linkDensity(measures: SubtreeMeasures, block: Block): number {
  const text = measures.textChars[block.index] as number;
  return text === 0 ? 0 : (measures.linkChars[block.index] as number) / text;
}

/** Commas of Latin, Arabic and CJK scripts (full-width and ideographic), which all separate clauses. */
const COMMA = /[,\u060C\uFE50\uFE10\uFE11\u2E41\u2E34\u2E32\uFF0C\u3001]/g;

export function commaCount(text: string): number {
  COMMA.lastIndex = 0;
  let count = 0;
  while (COMMA.exec(text) !== null) count++;
  return count;
}

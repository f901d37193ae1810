import type { Block, BlockTree } from '../html/blockTree.js';
import type { AtomicUnit } from '../ce/contentExtractor.js';

/** Share of a page's content words the main region must hold (above one half, so it is unique). */
const MAIN_REGION_SHARE = 0.6;
/** Words of a block count as words^1.5: the article is made of long paragraphs, teasers are short. */
const LONG_BLOCK_WEIGHT = 1.5;

/**
 * A page's main region: the deepest block whose subtree holds at least `MAIN_REGION_SHARE` of the
 * (weighted) words of its content units, and at least two content blocks. A single paragraph is
 * never a region (on a page whose first paragraph holds most words, it would cut the article after
 * that paragraph), nor is an inline block (a SPAN that malformed markup wraps around paragraphs):
 * it marks words, not layout. Comments, "latest stories" and shop widgets are unique to each page,
 * so ContentExtractor keeps them too; but they follow the article, and on most pages the article
 * holds most of the unique words. Null when the page has no content words. `mainblock` finds it
 * on the page alone; fastce+ records its path on each sample page (`fastce/region.ts`).
 */
export function mainRegionBlock(tree: BlockTree, contentUnits: readonly AtomicUnit[]): Block | null {
  const words = new Float64Array(tree.blocks.length);
  const units = new Float64Array(tree.blocks.length);
  for (const unit of contentUnits) {
    words[unit.block.index] = (words[unit.block.index] ?? 0) + unit.vector.sum ** LONG_BLOCK_WEIGHT;
    units[unit.block.index] = (units[unit.block.index] ?? 0) + 1;
  }
  sumOverSubtrees(tree.blocks, words);
  sumOverSubtrees(tree.blocks, units);
  const total = words[0] ?? 0;
  if (total === 0) return null;
  let region: Block | null = null;
  for (const block of tree.blocks) {
    if (block.breaksLine && (units[block.index] ?? 0) >= 2 && (words[block.index] ?? 0) >= MAIN_REGION_SHARE * total) region = block;
  }
  return region;
}

/** Adds every block's value into its ancestors', so each holds the sum over its subtree. */
export function sumOverSubtrees(blocks: readonly Block[], values: Float64Array): void {
  for (let i = blocks.length - 1; i > 0; i--) {
    const parent = (blocks[i] as Block).parent as Block;
    values[parent.index] = (values[parent.index] ?? 0) + (values[i] ?? 0);
  }
}

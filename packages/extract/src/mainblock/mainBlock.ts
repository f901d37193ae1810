import { buildBlockTree, type Block, type BlockTree } from '../html/blockTree.js';
import { boilerplateSubtrees, isLinkDense } from './boilerplate.js';
import { atomicUnits } from '../ce/contentExtractor.js';
import { mainRegionBlock } from './region.js';
import { blockLines, type TextLine } from '../html/blockLines.js';
import { resultOf, type ExtractionResult } from '../result/result.js';

/**
 * The single-page fallback for pages of a site that has no template yet: the page's main block is
 * the deepest block holding most of its prose (the main region of `region.ts`, found on the page
 * alone: every block that is not link-dense and not inside a container named as boilerplate counts
 * as prose, long blocks weighing more). Its text is rendered in order without link-dense blocks and
 * boilerplate-named containers. Simple and fast; a template does better once a site has one.
 */
export function extractMainBlock(html: string): ExtractionResult {
  const tree = buildBlockTree(html);
  const { lines, warnings } = mainBlockOf(tree);
  return resultOf('mainblock', lines, warnings);
}

/**
 * The main block's lines of an already parsed page (also fastce+'s reading of a page that does not
 * fit its template). Blocks marked in `setAside` count as boilerplate too: the reader, when the main
 * block replaces its article, passes what it never reads.
 */
export function mainBlockOf(tree: BlockTree, setAside?: Uint8Array): { lines: TextLine[]; warnings: string[] } {
  const named = boilerplateSubtrees(tree.blocks, null);
  if (setAside) for (let i = 0; i < named.length; i++) named[i] = (named[i] as number) | (setAside[i] as number);
  const prose = atomicUnits(tree).filter((unit) => !named[unit.block.index] && !isLinkDense(unit.block));
  if (prose.length === 0) return { lines: [], warnings: [...tree.warnings, 'no prose found'] };
  // A page whose prose is one block has no region of two blocks: that block is the main block.
  const region = mainRegionBlock(tree, prose) ?? prose.reduce((longest, unit) => (unit.vector.sum > longest.vector.sum ? unit : longest)).block;
  const rendered = blockLines(
    region,
    (child: Block) => !named[child.index],
    (kept: Block) => !isLinkDense(kept),
  );
  return { lines: rendered.lines, warnings: [...tree.warnings] };
}

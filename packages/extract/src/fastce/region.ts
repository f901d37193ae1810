import type { Block, BlockTree } from '../blockTree.js';
import type { AtomicUnit } from '../contentExtractor.js';

/** Share of a page's content words the main region must hold (above one half, so it is unique). */
const MAIN_REGION_SHARE = 0.6;
/** Words of a block count as words^1.5: the article is made of long paragraphs, teasers are short. */
const LONG_BLOCK_WEIGHT = 1.5;

/**
 * fastce+: the path of a sample page's main region — the deepest block whose subtree holds at least
 * `MAIN_REGION_SHARE` of the (weighted) words ContentExtractor kept as content, and at least two content
 * blocks. A single paragraph is never a region (on a page whose first paragraph holds most words,
 * it would cut the article after that paragraph), nor is an inline block (a SPAN that malformed
 * markup wraps around paragraphs): it marks words, not layout. Comments, "latest stories" and
 * shop widgets are unique to each page, so CE keeps them too; but they follow the article, and on most
 * pages the article holds most of the unique words. Null when the page has no content words.
 */
export function mainRegionPath(tree: BlockTree, contentUnits: readonly AtomicUnit[]): string | null {
  return mainRegionBlock(tree, contentUnits)?.path ?? null;
}

/** The block `mainRegionPath` names, on one page. */
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

/**
 * The sample pages' usual main region: the most frequent one, the deeper one on a tie. A page
 * with many comments has its region further up (the article and its comments together), so the
 * region of most pages, not their union, is the one to trust.
 */
export function mostCommonRegion(paths: readonly string[]): string | null {
  const counts = new Map<string, number>();
  for (const path of paths) counts.set(path, (counts.get(path) ?? 0) + 1);
  let best: string | null = null;
  for (const [path, count] of counts) {
    const bestCount = best === null ? 0 : (counts.get(best) ?? 0);
    if (count > bestCount || (count === bestCount && best !== null && (path.length > best.length || (path.length === best.length && path < best)))) best = path;
  }
  return best;
}

/**
 * fastce+ at detection: the page's main region, whose end is where main text ends, so that text
 * after it — the comments and widgets that follow an article — is not taken for main text. Among
 * the blocks on the template's region path, the one holding the most non-link text in
 * blocks on content paths is the region (a sidebar of repeated boilerplate may hold more text, but
 * not on content paths). Text before the region (headline, byline) is kept. Null when no block
 * is on the region path, or when the best one holds no text on content paths: this page nests its
 * article differently, and cutting after that block would lose the article. As at preparation, a
 * single paragraph is not a region: when the best block holds only its own text and siblings on
 * the region path hold content text too (a blog post whose paragraphs are DIVs, on a page with no
 * wrapper the sample pages had), the region is their parent. k-fold lcs F1 of fastce+ and
 * pipeline: dragnet +0.0016 / +0.0013, daniel and cleanportaleval unchanged (every parent whose
 * siblings hold content text: dragnet +0.005, but daniel -0.010 for fastce+, comments and boxes
 * after the article came in).
 */
export function mainRegion(tree: BlockTree, regionPath: string | null, contentPaths: ReadonlySet<string>): Block | null {
  const { blocks } = tree;
  if (regionPath === null) return null;
  const ownContentChars = (block: Block): number => (contentPaths.has(block.path) ? Math.max(0, block.textChars - block.linkChars) : 0);
  const chars = Float64Array.from(blocks, ownContentChars);
  sumOverSubtrees(blocks, chars);
  let best: Block | null = null;
  for (const block of blocks) {
    if (block.path === regionPath && (!best || (chars[block.index] ?? 0) > (chars[best.index] ?? 0))) best = block;
  }
  if (!best || (chars[best.index] ?? 0) === 0) return null;
  const isParagraph = chars[best.index] === ownContentChars(best);
  const siblingHoldsContent = best.parent?.items.some(
    (item) => typeof item === 'object' && item !== best && item.path === regionPath && (chars[item.index] ?? 0) > 0,
  );
  if (isParagraph && siblingHoldsContent) return best.parent as Block;
  return best;
}

/** Adds every block's value into its ancestors', so each holds the sum over its subtree. */
function sumOverSubtrees(blocks: readonly Block[], values: Float64Array): void {
  for (let i = blocks.length - 1; i > 0; i--) {
    const parent = (blocks[i] as Block).parent as Block;
    values[parent.index] = (values[parent.index] ?? 0) + (values[i] ?? 0);
  }
}

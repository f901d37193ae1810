import type { Block, BlockTree } from '../html/blockTree.js';
import type { AtomicUnit } from '../ce/contentExtractor.js';
import { mainRegionBlock, sumOverSubtrees } from '../mainblock/region.js';

/**
 * fastce+: the path of a sample page's main region (`mainRegionBlock`: the deepest block holding
 * most of the words ContentExtractor kept as content), which preparation records per sample page.
 */
export function mainRegionPath(tree: BlockTree, contentUnits: readonly AtomicUnit[]): string | null {
  return mainRegionBlock(tree, contentUnits)?.path ?? null;
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

import { type BlockTree, buildBlockTree } from './blockTree.js';

/** A page's structure: the set of its block paths, as page types and layouts are told apart. */
export function pathsOf(tree: BlockTree): Set<string> {
  return new Set(tree.blocks.map((block) => block.path));
}

/** The block paths of a page given as HTML. */
export function structureOf(html: string): Set<string> {
  return pathsOf(buildBlockTree(html));
}

/** Jaccard similarity of two sets of block paths (1 for two empty sets). */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let shared = 0;
  for (const path of small) if (large.has(path)) shared++;
  return shared / (a.size + b.size - shared);
}

/** The candidate whose paths are most like `paths` (Jaccard; the first of equals), with that similarity; none for no candidates. */
export function mostSimilar<T>(
  paths: ReadonlySet<string>,
  candidates: readonly T[],
  pathsOfCandidate: (candidate: T) => ReadonlySet<string>,
): { candidate: T; similarity: number } | undefined {
  let best: { candidate: T; similarity: number } | undefined;
  for (const candidate of candidates) {
    const similarity = jaccard(paths, pathsOfCandidate(candidate));
    if (!best || similarity > best.similarity) best = { candidate, similarity };
  }
  return best;
}

/** Paths at least half of the structures have: what a group of pages shares, sorted. */
export function sharedPaths(structures: readonly ReadonlySet<string>[]): string[] {
  const counts = new Map<string, number>();
  for (const structure of structures) for (const path of structure) counts.set(path, (counts.get(path) ?? 0) + 1);
  return [...counts]
    .filter(([, count]) => count * 2 >= structures.length)
    .map(([path]) => path)
    .sort();
}

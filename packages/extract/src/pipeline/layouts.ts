import { jaccard } from '../html/structure.js';

/**
 * Average similarity at or above which two groups of pages share a layout. Pages of one layout
 * differ in optional parts (a gallery, a table, comments) and agree on most paths; a redesign
 * renames or re-nests the containers, so that almost every path of the article changes.
 */
export const SAME_LAYOUT = 0.5;

/**
 * Groups a page type's pages by layout: average-linkage agglomeration of their block-path sets
 * (Jaccard), merging while two groups are on average at least `SAME_LAYOUT` alike. A site that
 * was redesigned gets one group per design, so no template has to learn two designs at once (one
 * template over both drops the article of the older one). No paper covers this step; average
 * linkage was chosen over single linkage so that a chain of slightly different pages cannot join
 * two designs. Returns member indices per group, largest group first; O(n³) in the pages, which
 * the caller bounds with a sample.
 */
export function groupByLayout(structures: readonly ReadonlySet<string>[]): number[][] {
  const n = structures.length;
  const similarity: number[][] = structures.map((a, i) => structures.map((b, j) => (i === j ? 1 : j < i ? 0 : jaccard(a, b))));
  for (let i = 0; i < n; i++) for (let j = 0; j < i; j++) (similarity[i] as number[])[j] = (similarity[j] as number[])[i] as number;
  let groups = structures.map((_, i) => [i]);
  const linkage = (a: readonly number[], b: readonly number[]): number => {
    let sum = 0;
    for (const i of a) for (const j of b) sum += (similarity[i] as number[])[j] as number;
    return sum / (a.length * b.length);
  };
  for (;;) {
    let best: { a: number; b: number; value: number } | undefined;
    for (let a = 0; a < groups.length; a++) {
      for (let b = a + 1; b < groups.length; b++) {
        const value = linkage(groups[a] as number[], groups[b] as number[]);
        if (value >= SAME_LAYOUT && (!best || value > best.value)) best = { a, b, value };
      }
    }
    if (!best) break;
    const { a, b } = best;
    const merged = [...(groups[a] as number[]), ...(groups[b] as number[])].sort((x, y) => x - y);
    groups = groups.filter((_, i) => i !== a && i !== b);
    groups.push(merged);
  }
  return groups.sort((a, b) => b.length - a.length || (a[0] as number) - (b[0] as number));
}

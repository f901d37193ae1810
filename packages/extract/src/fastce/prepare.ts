import { buildBlockTree, type BlockTree } from '../html/blockTree.js';
import { atomicUnits, isRepeated, RepeatIndex, type AtomicUnit } from '../ce/contentExtractor.js';
import { isLinkDense } from '../mainblock/boilerplate.js';
import { ExtractionError } from '../result/errors.js';
import { isSimilar, vectorKey } from '../ce/features.js';
import type { Limits } from '../html/limits.js';
import { mainRegionPath, mostCommonRegion } from './region.js';
import { evenlySpread } from './sampling.js';
import { DEFAULT_FASTCE_PARAMS, TEMPLATE_SCHEMA_VERSION, type FastCeParams, type StoredBlock, type Template } from './template.js';

export interface PrepareOptions {
  params?: Partial<FastCeParams>;
  limits?: Partial<Limits>;
  /** Pages actually read: more are thinned out evenly (the paper uses 20-30; default 30). */
  maxSamplePages?: number;
}

export const DEFAULT_MAX_SAMPLE_PAGES = 30;

/**
 * FastCE's preparation phase (paper, Section III and Figure 4): ContentExtractor labels the atomic
 * blocks of a site's sample pages; the template keeps the paths of the content blocks, and the
 * non-content blocks whose paths are also content paths (the ones detection could mistake for
 * content), as feature vectors. Repeats of a stored block at the same path (cosine above the
 * similarity) are stored once. The paper uses 20-30 pages; at least 2 are needed, and of more than
 * `maxSamplePages` an evenly spread sample is read (ContentExtractor's labelling compares every
 * block with every other page, so its cost grows with the square of the pages).
 */
export function prepareTemplate(pages: readonly string[], options: PrepareOptions = {}): { template: Template; warnings: string[] } {
  const params: FastCeParams = { ...DEFAULT_FASTCE_PARAMS, ...options.params };
  const warnings: string[] = [];
  const trees: BlockTree[] = [];
  for (const [html, i] of evenlySpread(
    pages.map((page, index) => [page, index] as const),
    options.maxSamplePages ?? DEFAULT_MAX_SAMPLE_PAGES,
  )) {
    try {
      const tree = buildBlockTree(html, { pathMode: params.pathMode, ...(options.limits ? { limits: options.limits } : {}) });
      trees.push(tree);
      for (const warning of tree.warnings) warnings.push(`page ${i}: ${warning}`);
    } catch (error) {
      if (!(error instanceof ExtractionError)) throw error;
      warnings.push(`page ${i} skipped: ${error.message}`);
    }
  }
  if (trees.length < 2) {
    throw new ExtractionError('invalid-argument', `FastCE needs at least 2 readable pages of a site, got ${trees.length}`);
  }
  const pageUnits = trees.map(atomicUnits);
  const index = new RepeatIndex(pageUnits.map((units) => units.map((unit) => unit.vector)));
  const contentPaths = new Set<string>();
  const regionPaths: string[] = [];
  const repeated: AtomicUnit[] = [];
  pageUnits.forEach((units, page) => {
    const content: AtomicUnit[] = [];
    for (const unit of units) {
      if (isRepeated(unit, index, params, page)) repeated.push(unit);
      else if (!params.refine || !isLinkDense(unit.block)) content.push(unit);
    }
    for (const unit of content) contentPaths.add(unit.block.path);
    const region = params.refine ? mainRegionPath(trees[page] as BlockTree, content) : null;
    if (region) regionPaths.push(region);
  });
  return {
    template: {
      schemaVersion: TEMPLATE_SCHEMA_VERSION,
      params,
      pageCount: trees.length,
      contentPaths: [...contentPaths].sort(),
      regionPath: mostCommonRegion(regionPaths),
      nonContent: storedNonContent(repeated, contentPaths, params.similarity),
    },
    warnings,
  };
}

function storedNonContent(repeated: readonly AtomicUnit[], contentPaths: ReadonlySet<string>, similarity: number): StoredBlock[] {
  const byPath = new Map<string, AtomicUnit[]>();
  const seen = new Set<string>();
  for (const unit of repeated) {
    const path = unit.block.path;
    if (!contentPaths.has(path)) continue;
    const key = `${path}|${vectorKey(unit.vector)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const kept = byPath.get(path) ?? [];
    if (kept.some((other) => isSimilar(unit.vector, other.vector, similarity))) continue;
    kept.push(unit);
    byPath.set(path, kept);
  }
  return [...byPath.keys()]
    .sort()
    .flatMap((path) => (byPath.get(path) ?? []).map((unit) => ({ path, ids: [...unit.vector.ids], counts: [...unit.vector.counts] })));
}

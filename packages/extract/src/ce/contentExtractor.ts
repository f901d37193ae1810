import { buildBlockTree, type Block, type BlockTree } from '../html/blockTree.js';
import { ExtractionError } from '../result/errors.js';
import { z } from 'zod';
import { featureVector, isLongBlock, isSimilar, LONG_BLOCK_SIMILARITY, vectorKey, vectorOf, type FeatureVector } from './features.js';
import { ownText } from '../html/blockLines.js';
import { resultOf, type ExtractionResult } from '../result/result.js';

/**
 * ContentExtractor (Debnath, Mitra, Pal, Giles 2005), as the FastCE paper summarises it in
 * Section II: a page is partitioned into atomic blocks; a block similar (cosine > 0.9) to blocks on
 * many of the site's pages is non-content; the rest is the page's content.
 */
export interface ContentExtractorParams {
  /** Cosine above which two blocks are similar (the paper: 0.9). */
  similarity: number;
  /**
   * Share of the other pages that must hold a similar block for a block to be non-content. The
   * paper says only "many times"; we take at least two pages (`repeatThreshold`) and at least this
   * share, rounded up.
   */
  repeatShare: number;
}

export const DEFAULT_CE_PARAMS: Readonly<ContentExtractorParams> = Object.freeze({
  similarity: 0.9,
  repeatShare: 0.1,
});

/** One atomic unit of ContentExtractor's partition: a block's own text, without its sub-blocks. */
export interface AtomicUnit {
  readonly block: Block;
  readonly text: string;
  readonly vector: FeatureVector;
}

/**
 * Partitions a page the way ContentExtractor does (paper, Figures 2-3): every block's own content
 * (what is left after its sub-blocks are taken out) is one unit. Units come in post-order — the
 * sub-blocks before what remains of their parent — which is the order the paper's Figure 3 shows and
 * why CE cannot answer an exact-phrase query that runs through an inline block. Units without a
 * single word are dropped: they carry no text to keep or to remove.
 */
export function atomicUnits(tree: BlockTree): AtomicUnit[] {
  const units: AtomicUnit[] = [];
  const stack: Array<{ block: Block; childrenPushed: boolean }> = [{ block: tree.root, childrenPushed: false }];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as { block: Block; childrenPushed: boolean };
    if (!frame.childrenPushed) {
      frame.childrenPushed = true;
      const children = frame.block.items.filter((item): item is Block => typeof item === 'object');
      for (let i = children.length - 1; i >= 0; i--) stack.push({ block: children[i] as Block, childrenPushed: false });
      continue;
    }
    stack.pop();
    const block = frame.block;
    const text = ownText(block);
    if (text === '') continue;
    const vector = featureVector(text, block);
    if (vector.termCount > 0) units.push({ block, text, vector });
  }
  return units;
}

/**
 * Other pages that must hold a similar block, at the least, for a block to be non-content (all of
 * them when there are fewer, and one at least: with no other page, nothing repeats). One was
 * enough before: in a small sample, a story two of its pages carry (the same report under two
 * URLs) lost its paragraphs as boilerplate on both. k-fold runs cannot show it (a page is never in
 * its own sample), and scored the same with two: `pipeline` lcs F1 daniel -0.0001, dragnet
 * +0.0001, cleanportaleval 0; `fastce+` -0.0004, +0.0003, -0.0004. Replayed as crawled sites
 * (`winnow eval --replay`), big5.xinhuanet.com, two of whose pages carry one story, went
 * from 0.884 to 0.924 lcs F1 (k-fold: 0.924).
 */
const MIN_REPEATS = 2;

export function repeatThreshold(otherPages: number, params: ContentExtractorParams): number {
  return Math.max(1, Math.min(MIN_REPEATS, otherPages), Math.ceil(params.repeatShare * otherPages));
}

interface RepeatEntry {
  readonly vector: FeatureVector;
  readonly pages: number[];
}

/**
 * The distinct unit vectors of a set of pages, each with the pages it occurs on (exact repeats —
 * most boilerplate — collapse into one entry), and an inverted index from feature id to the entries
 * holding it, so that "on how many pages is there a block similar to B" compares B with the few
 * entries that can be similar instead of all of them: comparing all made a site's preparation
 * grow with the square of its blocks (20 pages of 1000 paragraphs: 11 s).
 *
 * Why the candidates are enough: if B's features outside a chosen prefix have a norm r, a vector
 * sharing none of the prefix's features has cosine at most r/|B| with B (Cauchy-Schwarz). So once
 * r ≤ t·|B|, every vector above the threshold t holds a prefix feature. The prefix takes B's rarest
 * features first, so few entries are read. Long blocks need a higher cosine with each other (see
 * `isSimilar`), hence a shorter prefix: long and short entries are indexed apart.
 */
export class RepeatIndex {
  private readonly entries: RepeatEntry[] = [];
  private readonly byKey = new Map<string, RepeatEntry>();
  /** Entry numbers by feature id, for long entries and for short ones. */
  private readonly longPostings = new Map<number, number[]>();
  private readonly shortPostings = new Map<number, number[]>();
  readonly pageCount: number;

  constructor(pages: ReadonlyArray<readonly FeatureVector[]>) {
    this.pageCount = pages.length;
    pages.forEach((vectors, page) => {
      for (const vector of vectors) {
        const key = vectorKey(vector);
        let entry = this.byKey.get(key);
        if (!entry) {
          entry = { vector, pages: [] };
          this.byKey.set(key, entry);
          this.entries.push(entry);
        }
        if (entry.pages[entry.pages.length - 1] !== page) entry.pages.push(page);
      }
    });
    this.entries.forEach(({ vector }, entry) => {
      const postings = isLongBlock(vector) ? this.longPostings : this.shortPostings;
      for (const id of vector.ids) {
        const holders = postings.get(id);
        if (holders) holders.push(entry);
        else postings.set(id, [entry]);
      }
    });
  }

  /** Number of distinct vectors (the paper's NumBlockTemp for CE). */
  get size(): number {
    return this.entries.length;
  }

  /**
   * Counts the pages, other than `ownPage`, that hold a block similar to `vector`, stopping once
   * `enough` is reached (the caller only needs to know whether the threshold is met). Candidates
   * are compared in the entries' order, so the count where it stops is the one a scan of all
   * entries gives.
   */
  countPagesWithSimilar(vector: FeatureVector, similarity: number, enough: number, ownPage = -1): number {
    const seen = new Set<number>();
    const add = (pages: number[]): void => {
      for (const page of pages) if (page !== ownPage) seen.add(page);
    };
    const exact = this.byKey.get(vectorKey(vector));
    if (exact) add(exact.pages);
    if (seen.size >= enough) return seen.size;
    for (const candidate of this.candidates(vector, similarity)) {
      if (seen.size >= enough) break;
      const entry = this.entries[candidate] as RepeatEntry;
      if (entry !== exact && isSimilar(vector, entry.vector, similarity)) add(entry.pages);
    }
    return seen.size;
  }

  /** The entries that can be similar to `vector`, ascending: every entry `isSimilar` accepts is among them. */
  private candidates(vector: FeatureVector, similarity: number): Iterable<number> {
    // At a threshold of 0 or below, vectors sharing no feature are similar too.
    if (!(similarity > 0)) return this.entries.keys();
    const found = new Set<number>();
    const longSimilarity = isLongBlock(vector) ? Math.max(similarity, LONG_BLOCK_SIMILARITY) : similarity;
    holdersOfPrefix(vector, this.longPostings, longSimilarity, found);
    holdersOfPrefix(vector, this.shortPostings, similarity, found);
    return Uint32Array.from(found).sort();
  }
}

/**
 * Adds to `found` the entries holding one of the features of the shortest rarest-first prefix of
 * `vector` whose remaining features have a norm of at most `threshold`·|vector|. Squared norms are
 * summed as integers (exact); the slight margin keeps a cosine rounded up past the threshold among
 * the candidates.
 */
function holdersOfPrefix(vector: FeatureVector, postings: ReadonlyMap<number, readonly number[]>, threshold: number, found: Set<number>): void {
  const { ids, counts } = vector;
  let remaining = 0;
  for (const count of counts) remaining += count * count;
  const allowed = threshold * threshold * remaining * (1 - 1e-9);
  const holders = Array.from(ids, (id) => postings.get(id) ?? []);
  const rarestFirst = Array.from(ids.keys()).sort((a, b) => (holders[a] as readonly number[]).length - (holders[b] as readonly number[]).length);
  for (const feature of rarestFirst) {
    if (remaining <= allowed) return;
    for (const entry of holders[feature] as readonly number[]) found.add(entry);
    const count = counts[feature] as number;
    remaining -= count * count;
  }
}

/** True when ContentExtractor calls a unit non-content among the indexed pages. */
export function isRepeated(unit: AtomicUnit, index: RepeatIndex, params: ContentExtractorParams, ownPage = -1): boolean {
  const otherPages = ownPage >= 0 ? index.pageCount - 1 : index.pageCount;
  const threshold = repeatThreshold(otherPages, params);
  return index.countPagesWithSimilar(unit.vector, params.similarity, threshold, ownPage) >= threshold;
}

/** ContentExtractor's knowledge of a site: the atomic blocks of its sample pages, indexed. */
export interface ContentExtractorModel {
  readonly index: RepeatIndex;
  readonly params: ContentExtractorParams;
}

const storedVectorSchema = z.object({ ids: z.array(z.number().int().nonnegative()), counts: z.array(z.number().int().positive()) });
const ceTemplateSchema = z.object({
  kind: z.literal('ce'),
  params: z.object({ similarity: z.number().gt(0).lt(1), repeatShare: z.number().gt(0).lte(1) }),
  /** Every atomic unit's feature vector, page by page: what a new page's blocks are compared with. */
  pages: z.array(z.array(storedVectorSchema)),
});

/** ContentExtractor's storable template: the sample pages' atomic units as feature vectors (never their text). */
export type ContentExtractorTemplate = z.infer<typeof ceTemplateSchema>;

/** Reads a site's sample pages for ContentExtractor; unreadable pages are skipped and said so. */
export function prepareContentExtractor(
  pages: readonly string[],
  params: ContentExtractorParams = DEFAULT_CE_PARAMS,
): { template: ContentExtractorTemplate; warnings: string[] } {
  const vectors: ContentExtractorTemplate['pages'] = [];
  const warnings: string[] = [];
  pages.forEach((html, page) => {
    try {
      vectors.push(atomicUnits(buildBlockTree(html)).map(({ vector }) => ({ ids: [...vector.ids], counts: [...vector.counts] })));
    } catch (error) {
      if (!(error instanceof ExtractionError)) throw error;
      warnings.push(`page ${page} skipped: ${error.message}`);
    }
  });
  if (vectors.length === 0) throw new ExtractionError('invalid-argument', 'ContentExtractor needs at least 1 readable page of the site');
  return { template: { kind: 'ce', params: { ...params }, pages: vectors }, warnings };
}

/** Validates a stored ContentExtractor template. */
export function parseContentExtractorTemplate(value: unknown): ContentExtractorTemplate {
  const parsed = ceTemplateSchema.safeParse(value);
  if (!parsed.success) throw new ExtractionError('invalid-template', `not a ContentExtractor template: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** Indexes a template's vectors for detection. */
export function compileContentExtractor(template: ContentExtractorTemplate): ContentExtractorModel {
  const pages = template.pages.map((units) => units.map((unit) => vectorOf(Uint32Array.from(unit.ids), Uint32Array.from(unit.counts))));
  return { index: new RepeatIndex(pages), params: template.params };
}

/**
 * ContentExtractor on a new page: each atomic unit is compared with every distinct block of the
 * sample pages, and kept when too few of them hold a similar block. Output follows the partition's
 * post-order (paper, Figure 3), not the page's reading order.
 */
export function extractWithContentExtractor(model: ContentExtractorModel, html: string): ExtractionResult {
  const tree = buildBlockTree(html);
  const blocks = atomicUnits(tree)
    .filter((unit) => !isRepeated(unit, model.index, model.params))
    .map((unit) => ({ path: unit.block.path, text: unit.text }));
  return resultOf('ce', blocks, tree.warnings);
}

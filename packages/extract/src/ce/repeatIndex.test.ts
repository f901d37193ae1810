import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { demoSite } from '@winnow/demo-corpus';
import { buildBlockTree } from '../html/blockTree.js';
import { atomicUnits, RepeatIndex } from './contentExtractor.js';
import { isSimilar, vectorKey, vectorOf, type FeatureVector } from './features.js';
import { samplePages } from '../testing/sitePages.js';

/** What `countPagesWithSimilar` computed before it had an inverted index: a scan of every distinct vector. */
function scanAll(pages: ReadonlyArray<readonly FeatureVector[]>) {
  const entries = new Map<string, { vector: FeatureVector; pages: number[] }>();
  pages.forEach((vectors, page) => {
    for (const each of vectors) {
      const entry = entries.get(vectorKey(each)) ?? { vector: each, pages: [] };
      entries.set(vectorKey(each), entry);
      if (entry.pages[entry.pages.length - 1] !== page) entry.pages.push(page);
    }
  });
  return (vector: FeatureVector, similarity: number, enough: number, ownPage: number): number => {
    const seen = new Set<number>();
    const add = (on: number[]): void => {
      for (const page of on) if (page !== ownPage) seen.add(page);
    };
    const exact = entries.get(vectorKey(vector));
    if (exact) add(exact.pages);
    for (const entry of entries.values()) {
      if (seen.size >= enough) break;
      if (entry !== exact && isSimilar(vector, entry.vector, similarity)) add(entry.pages);
    }
    return seen.size;
  };
}

function assertSameCounts(pages: ReadonlyArray<readonly FeatureVector[]>, queries: readonly FeatureVector[], thresholds: readonly number[]): void {
  const index = new RepeatIndex(pages);
  const expectedCount = scanAll(pages);
  for (const similarity of thresholds) {
    for (const enough of [1, 2, Math.ceil(pages.length / 3), Number.POSITIVE_INFINITY]) {
      for (const ownPage of [-1, 0, pages.length - 1]) {
        for (const query of queries) {
          const expected = expectedCount(query, similarity, enough, ownPage);
          assert.equal(
            index.countPagesWithSimilar(query, similarity, enough, ownPage),
            expected,
            `similarity ${similarity}, enough ${enough}, page ${ownPage}`,
          );
        }
      }
    }
  }
}

/** Sparse vectors over a small id space, many of them near copies of a few originals, short and long, some empty. */
function randomVectors(count: number, random: () => number): FeatureVector[] {
  const originals = Array.from({ length: 6 }, () => randomCounts(random, 1 + Math.floor(random() * 25)));
  return Array.from({ length: count }, () => {
    if (random() < 0.05) return vectorOf(new Uint32Array(0), new Uint32Array(0));
    const counts = random() < 0.6 ? new Map(originals[Math.floor(random() * originals.length)]) : randomCounts(random, 1 + Math.floor(random() * 25));
    const edits = Math.floor(random() * 3);
    for (let i = 0; i < edits; i++) counts.set(1 + Math.floor(random() * 40), 1 + Math.floor(random() * 3));
    const ids = Uint32Array.from(counts.keys()).sort();
    return vectorOf(
      ids,
      Uint32Array.from(ids, (id) => counts.get(id) ?? 0),
    );
  });
}

function randomCounts(random: () => number, features: number): Map<number, number> {
  const counts = new Map<number, number>();
  for (let i = 0; i < features; i++) counts.set(1 + Math.floor(random() * 40), 1 + Math.floor(random() * 4));
  return counts;
}

function seeded(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 48271) % 2147483647) / 2147483647;
}

const THRESHOLDS = [-0.5, 0, 0.3, 0.6, 0.8, 0.9, 0.95, 0.97, 0.99];

describe('the repeat index', () => {
  it('counts what a scan of every distinct vector counts, on random vectors', () => {
    for (const seed of [1, 2, 3]) {
      const random = seeded(seed);
      const pages = Array.from({ length: 7 }, () => randomVectors(30, random));
      assertSameCounts(pages, [...pages.flat(), ...randomVectors(60, random)], THRESHOLDS);
    }
  });

  it('counts what a scan of every distinct vector counts, on the blocks of sample pages', () => {
    const sites = [
      samplePages(8),
      demoSite('gazette', { articles: 8 }).pages.map((page) => page.html),
      demoSite('relaunch', { articles: 10 }).pages.map((page) => page.html),
    ];
    for (const site of sites) {
      const pages = site.map((html) => atomicUnits(buildBlockTree(html)).map((unit) => unit.vector));
      assertSameCounts(pages, pages.flat(), [0.5, 0.9, 0.95]);
    }
  });
});

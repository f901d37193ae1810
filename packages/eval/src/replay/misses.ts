import type { Phrase, PhraseKind } from './phrases.js';
import { around, holdsRun, longestGoldRun, looseWords, padded, readerWords } from './readerWords.js';

/**
 * The layer of the product that lost a phrase of the article: the page was never stored (`not
 * crawled`); the stored extraction lacks the phrase, or there is none (`not extracted`); the
 * extraction holds it but the search document the page is found by does not (`extracted, not
 * indexed`); the indexed text holds it and the search did not return the page (`search failed`).
 */
export const MISS_LAYERS = ['not crawled', 'not extracted', 'extracted, not indexed', 'search failed'] as const;
export type MissLayer = (typeof MISS_LAYERS)[number];

/** What the pipeline did with the page a phrase was taken from, and its texts. */
export interface ReplayedPage {
  stored: boolean;
  /** An extraction is stored for the page. */
  extracted: boolean;
  /** The page has a search document of its own. */
  indexed: boolean;
  /** The URL of the page it duplicates (found through that page's document), or null. */
  duplicateOf: string | null;
  /** The text a search finds the page by: its own document's, or the page it duplicates. */
  searchText: string;
  /** Its stored extraction. */
  extractedText: string;
  /** Its links' texts (`linkTexts` of its HTML), to tell link text the gold keeps. */
  linkTexts: readonly string[];
}

/** Why a phrase of the article was not found, and the indexed text that shows it. */
export interface ContentMiss {
  layer: MissLayer;
  cause: string;
  indexed?: string | null;
  /** across, both halves indexed apart: what the index holds between them. */
  between?: string;
}

/** Whether the page's search text holds the phrase's words as a run: a search layer without faults finds it. */
export function searchTextHolds(phrase: Phrase, page: ReplayedPage): boolean {
  return holdsRun(page.searchText, phrase.words);
}

/**
 * The layer and cause of an inside or across phrase the search did not find on its page. Dropped
 * lines are told apart by what they are: link text the gold keeps, a line at the gold's edge (its
 * first or last two lines: title, date, byline, trailer), a short line inside (6 words or fewer:
 * heading, caption, date), or a paragraph; across phrases whose two halves are both indexed, with
 * text between them or in another order; words glued to a neighbour without a space.
 */
export function explainContentMiss(phrase: Phrase, page: ReplayedPage): ContentMiss {
  if (!page.indexed && !page.duplicateOf) {
    const layer: MissLayer = !page.stored
      ? 'not crawled'
      : page.extracted && holdsRun(page.extractedText, phrase.words)
        ? 'extracted, not indexed'
        : 'not extracted';
    return { layer, cause: 'page not indexed' };
  }
  if (searchTextHolds(phrase, page)) return { layer: 'search failed', cause: 'search layer', indexed: around(page.searchText, phrase.words)?.snippet ?? null };
  if (holdsRun(page.extractedText, phrase.words)) return { layer: 'extracted, not indexed', cause: 'extracted but not in the index' };
  const indexedWords = padded(readerWords(page.searchText));
  const split = phrase.split ?? phrase.words.length;
  const firstHalf = phrase.words.slice(0, split);
  const secondHalf = phrase.words.slice(split);
  if (looseWords(page.searchText).includes(padded(looseWords(phrase.words.join(' ')).trim().split(' '))))
    return {
      layer: 'not extracted',
      cause: 'extraction glued a word to its neighbour (no space between them)',
      indexed: gluedSnippet(page.searchText, phrase.words),
    };
  if (phrase.kind === 'across' && indexedWords.includes(padded(firstHalf)) && indexedWords.includes(padded(secondHalf))) {
    const tail = around(page.searchText, firstHalf, 0)!;
    const head = around(page.searchText.slice(tail.end), secondHalf, 0);
    const miss: ContentMiss = {
      layer: 'not extracted',
      cause: head ? 'both lines indexed, text kept between them' : 'both lines indexed, in another order',
      indexed: around(page.searchText, secondHalf, 120)?.snippet ?? null,
    };
    if (head) {
      const between = page.searchText.slice(tail.end, tail.end + head.start).trim();
      miss.between = between.length > 160 ? `${between.slice(0, 160)}…` : between;
    }
    return miss;
  }
  const firstHalfHeld = phrase.kind === 'across' && indexedWords.includes(padded(firstHalf));
  const missingLine = (phrase.goldLine ?? 0) + (firstHalfHeld ? 1 : 0);
  const missingWords = phrase.lineWords?.[firstHalfHeld ? 1 : 0] ?? phrase.words.length;
  const missingPart = phrase.kind === 'across' ? (firstHalfHeld ? secondHalf : firstHalf) : phrase.words;
  const cause = page.linkTexts.some((text) => text.includes(padded(missingPart)))
    ? 'extraction dropped a line: link text (the gold keeps links)'
    : missingLine < 2 || missingLine >= (phrase.goldLines ?? 0) - 2
      ? "extraction dropped a line: at the gold's edge (first or last two lines: title, date, byline, trailer)"
      : missingWords <= 6
        ? 'extraction dropped a line: a short line inside (heading, caption, date)'
        : 'extraction dropped a line: a paragraph inside';
  return { layer: 'not extracted', cause };
}

/** The indexed text around the phrase's first word where it is glued to something. */
function gluedSnippet(text: string, words: readonly string[]): string | null {
  const at = text.toLowerCase().indexOf(words[0] ?? '');
  return at < 0 ? null : text.slice(Math.max(0, at - 60), at + 80).replace(/\n/g, ' ⏎ ');
}

/**
 * Why a boilerplate phrase matched a page: text the search matched that the reader words do not
 * hold; a phrase half or more in this page's gold (it straddles the gold's edge: the sample's
 * fault as much as the extraction's); kept link text (related links, menus); other kept text.
 */
export function boilerplateMatchCause(
  words: readonly string[],
  indexedText: string,
  gold: string,
  pageLinkTexts: readonly string[],
): { cause: string; line: number | null; indexed: string | null; goldRun: number } {
  const near = around(indexedText, words);
  const goldRun = longestGoldRun(words, padded(readerWords(gold)));
  const cause = !near
    ? 'search matched text the reader words do not hold'
    : goldRun >= words.length / 2
      ? `straddles the gold's edge (${goldRun} of ${words.length} words in this page's gold)`
      : pageLinkTexts.some((text) => text.includes(padded(words)))
        ? 'kept link text (related links, menus)'
        : near.line === 0
          ? 'kept other text (first line)'
          : 'kept other text (captions, notes, embeds, bylines…)';
  return { cause, line: near?.line ?? null, indexed: near?.snippet ?? null, goldRun };
}

/**
 * One site's (or a sum's) counts for one kind of phrase. inside/across: `found`, and the misses as
 * `extraction` (the indexed text lacks the phrase), `searchLayer` (it holds it) and `notIndexed`
 * (the page has no search document), and by `layers`; `foundPastInterruption` found where the
 * indexed text has short lines between the phrase's halves (the search reads past them: `bridgesOf`
 * in @winnow/search); `foundWithoutText` found although neither the indexed text nor a bridge holds
 * the run. boilerplate: `found` is a search that matched any page of the site, `heldByIndex` a
 * phrase some indexed page holds whether or not the search matched, `hiddenBySearch` one held but
 * not matched (a search-layer fault can hide boilerplate the index kept).
 */
export interface PhraseCounts {
  phrases: number;
  found: number;
  extraction: number;
  searchLayer: number;
  notIndexed: number;
  foundPastInterruption: number;
  foundWithoutText: number;
  queryErrors: number;
  heldByIndex: number;
  hiddenBySearch: number;
  layers: Record<MissLayer, number>;
}

export function noCounts(): PhraseCounts {
  return {
    phrases: 0,
    found: 0,
    extraction: 0,
    searchLayer: 0,
    notIndexed: 0,
    foundPastInterruption: 0,
    foundWithoutText: 0,
    queryErrors: 0,
    heldByIndex: 0,
    hiddenBySearch: 0,
    layers: Object.fromEntries(MISS_LAYERS.map((layer) => [layer, 0])) as Record<MissLayer, number>,
  };
}

/** Counts a miss of an inside or across phrase under the script-era columns and under its layer. */
export function countContentMiss(counts: PhraseCounts, miss: ContentMiss): void {
  counts.layers[miss.layer]++;
  if (miss.cause === 'page not indexed') counts.notIndexed++;
  else if (miss.cause === 'search layer') counts.searchLayer++;
  else counts.extraction++;
}

export function sumCounts(all: readonly PhraseCounts[]): PhraseCounts {
  const total = noCounts();
  for (const counts of all) {
    for (const key of Object.keys(total) as Array<keyof PhraseCounts>) if (key !== 'layers') total[key] += counts[key];
    for (const layer of MISS_LAYERS) total.layers[layer] += counts.layers[layer];
  }
  return total;
}

/** The three search rates: inside and across phrases found on their page, boilerplate phrases that matched any page of the site. */
export interface SearchRates {
  inside: number | null;
  across: number | null;
  boilerplate: number | null;
}

export function searchRates(counts: Record<PhraseKind, PhraseCounts>): SearchRates {
  const rate = (c: PhraseCounts) => (c.phrases === 0 ? null : c.found / c.phrases);
  return { inside: rate(counts.inside), across: rate(counts.across), boilerplate: rate(counts.boilerplate) };
}

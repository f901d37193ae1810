import { seededRandom } from '@winnow/demo-corpus';
import { blockLines, buildBlockTree } from '@winnow/extract';
import { MAX_QUERY_LENGTH } from '@winnow/search';
import { padded, phraseQuery, type ReaderToken, readerTokens, trivialPhrase } from './readerWords.js';

export const PHRASE_KINDS = ['inside', 'across', 'boilerplate'] as const;
/**
 * `inside`: 5-8 consecutive words of one gold line. `across`: the last 3-4 words of a gold line and
 * the first 3-4 of the next line of the same page. `boilerplate`: 5-8 consecutive words of a line
 * the page shows (its block lines) that occur as a run in the gold of no page of the site, from a
 * line that is not mostly its page's gold (`mostlyInGold`: the article's text the gold's author edited).
 */
export type PhraseKind = (typeof PHRASE_KINDS)[number];

/** A sampled phrase: the reader words it must match, and the query a user would paste for it. */
export interface Phrase {
  kind: PhraseKind;
  pageId: string;
  words: string[];
  query: string;
  /** inside/across: the gold line (of `goldLines`) the phrase starts in. */
  goldLine?: number;
  goldLines?: number;
  /** inside/across: the words of the line(s) it was taken from. */
  lineWords?: number[];
  /** across: how many of `words` come from the first line. */
  split?: number;
  /** boilerplate: the shown line it was taken from (cut at 200 characters). */
  shownLine?: string;
}

/** A page to sample from: its id, gold and HTML (what it shows). */
export interface SamplePage {
  id: string;
  gold: string;
  html: string;
  /**
   * The dataset's gold is not this page's text (`goldMismatch`): no inside or across phrase is
   * taken from it, as `winnow eval` scores such pages apart, since no extraction can hold a phrase
   * of another page's text or of what the dataset says it cut. Its gold still keeps a line out of
   * the boilerplate phrases.
   */
  goldIsNotItsText?: boolean;
}

export type SampledPhrases = Record<PhraseKind, Phrase[]>;

interface Line {
  text: string;
  tokens: ReaderToken[];
}

/** A deterministic generator of numbers in [0, 1) from a text: its FNV-1a hash seeds the demo corpus's mulberry32. */
export function randomFrom(seedText: string): () => number {
  let hash = 2166136261;
  for (const char of seedText) hash = Math.imul(hash ^ char.codePointAt(0)!, 16777619);
  return seededRandom(hash);
}
const randomInt = (random: () => number, n: number) => Math.floor(random() * n);
const randomBetween = (random: () => number, low: number, high: number) => low + randomInt(random, high - low + 1);

/**
 * Up to `count` phrases of each kind from one site's pages, the same for the same pages and seed
 * (each kind draws from its own generator, seeded by seed, site and kind, so that adding one kind's
 * phrases never moves another's). Phrases of function words or digits only, repeats, and queries
 * longer than the search accepts are skipped. A phrase's place is drawn by page, then by word within
 * the page (a line weighted by its words): what a reader quotes, not one phrase per line whatever
 * its length, where a list of link titles would outweigh the article's paragraphs.
 */
export function samplePhrases(site: string, pages: readonly SamplePage[], count: number, seed: string): SampledPhrases {
  const goldPages = pages.map((page) => ({
    page,
    lines: page.gold
      .split('\n')
      .map((text) => ({ text, tokens: readerTokens(text) }))
      .filter((line) => line.tokens.length > 0),
  }));
  const golds = goldPages.map(({ lines }) => padded(lines.flatMap((line) => line.tokens.map((token) => token.word))));
  const inAnyGold = (words: readonly string[]) => golds.some((gold) => gold.includes(padded(words)));
  const phrases: SampledPhrases = { inside: [], across: [], boilerplate: [] };
  const seen = new Set<string>();
  const add = (kind: PhraseKind, page: SamplePage, words: string[], raw: string, extra: Partial<Phrase> = {}) => {
    const key = `${kind}:${words.join(' ')}`;
    const query = phraseQuery(raw);
    if (seen.has(key) || trivialPhrase(words) || query.length > MAX_QUERY_LENGTH) return;
    seen.add(key);
    phrases[kind].push({ kind, pageId: page.id, words, query, ...extra });
  };
  const slice = (line: Line, from: number, to: number) => line.text.slice(line.tokens[from]!.start, line.tokens[to - 1]!.end);
  const wordsOf = (tokens: readonly ReaderToken[]) => tokens.map((token) => token.word);

  let random = randomFrom(`${seed}:${site}:inside`);
  const textPages = goldPages.filter(({ page }) => page.goldIsNotItsText !== true);
  const insidePages = textPages
    .map((goldPage) => ({ ...goldPage, long: goldPage.lines.filter((line) => line.tokens.length >= 5) }))
    .filter((candidate) => candidate.long.length > 0)
    .map((candidate) => ({ ...candidate, words: candidate.long.reduce((sum, line) => sum + line.tokens.length, 0) }));
  for (let attempt = 0; insidePages.length > 0 && phrases.inside.length < count && attempt < count * 20; attempt++) {
    const { page, lines, long, words: pageWords } = insidePages[randomInt(random, insidePages.length)]!;
    let place = randomInt(random, pageWords);
    const line = long.find((candidate) => (place -= candidate.tokens.length) < 0)!;
    const length = Math.min(randomBetween(random, 5, 8), line.tokens.length);
    const from = randomInt(random, line.tokens.length - length + 1);
    add('inside', page, wordsOf(line.tokens.slice(from, from + length)), slice(line, from, from + length), {
      goldLine: lines.indexOf(line),
      goldLines: lines.length,
      lineWords: [line.tokens.length],
    });
  }

  random = randomFrom(`${seed}:${site}:across`);
  const pairPages = textPages
    .map(({ page, lines }) => ({
      page,
      lines,
      pairs: lines.slice(0, -1).flatMap((line, i) => (line.tokens.length >= 3 && lines[i + 1]!.tokens.length >= 3 ? [{ a: line, b: lines[i + 1]! }] : [])),
    }))
    .filter((candidate) => candidate.pairs.length > 0);
  for (let attempt = 0; pairPages.length > 0 && phrases.across.length < count && attempt < count * 20; attempt++) {
    const { page, lines, pairs } = pairPages[randomInt(random, pairPages.length)]!;
    const { a, b } = pairs[randomInt(random, pairs.length)]!;
    const tail = Math.min(randomBetween(random, 3, 4), a.tokens.length);
    const head = Math.min(randomBetween(random, 3, 4), b.tokens.length);
    add(
      'across',
      page,
      wordsOf([...a.tokens.slice(-tail), ...b.tokens.slice(0, head)]),
      `${slice(a, a.tokens.length - tail, a.tokens.length)} ${slice(b, 0, head)}`,
      {
        split: tail,
        goldLine: lines.indexOf(a),
        goldLines: lines.length,
        lineWords: [a.tokens.length, b.tokens.length],
      },
    );
  }

  random = randomFrom(`${seed}:${site}:boilerplate`);
  // A line mostly in its own page's gold is passed over like a phrase in a gold: rejected after the
  // draw, so that the draws after it stay those of the pages alone.
  const shownLines = pages.flatMap((page, i) => shownLinesOf(page.html).map((line) => ({ page, line, gold: golds[i] as string })));
  for (let attempt = 0; shownLines.length > 0 && phrases.boilerplate.length < count && attempt < count * 50; attempt++) {
    const { page, line, gold } = shownLines[randomInt(random, shownLines.length)]!;
    const length = Math.min(randomBetween(random, 5, 8), line.tokens.length);
    const from = randomInt(random, line.tokens.length - length + 1);
    const words = wordsOf(line.tokens.slice(from, from + length));
    if (inAnyGold(words) || mostlyInGold(wordsOf(line.tokens), gold)) continue;
    add('boilerplate', page, words, slice(line, from, from + length), {
      shownLine: line.text.length > 200 ? `${line.text.slice(0, 200)}…` : line.text,
    });
  }
  return phrases;
}

/** Words of a run that ties a shown line to its page's gold: shorter runs match by chance. */
const GOLD_RUN = 3;

/**
 * Share of a shown line's words, in runs of `GOLD_RUN` its page's gold also has, from which the line
 * is the article's own text that the gold's author edited (a typo corrected, a subject reworded: "He
 * further said" for "The SBI further said"): a phrase across the edit is in no gold, but it is no
 * boilerplate either, and is not sampled as one. A breadcrumb ending in the headline has about
 * half of its words in the gold and stays a candidate.
 */
const ARTICLE_LINE_SHARE = 0.75;

/** Whether most of `words` sit in runs of `GOLD_RUN` words that `gold` (padded) holds. */
export function mostlyInGold(words: readonly string[], gold: string): boolean {
  const held = new Array<boolean>(words.length).fill(false);
  for (let i = 0; i + GOLD_RUN <= words.length; i++) if (gold.includes(padded(words.slice(i, i + GOLD_RUN)))) held.fill(true, i, i + GOLD_RUN);
  return held.filter(Boolean).length >= ARTICLE_LINE_SHARE * words.length;
}

/** The lines of five words or more that a page shows (its block tree's lines); none for a page the block tree refuses. */
function shownLinesOf(html: string): Line[] {
  let lines: Array<{ text: string }> = [];
  try {
    lines = blockLines(buildBlockTree(html).root).lines;
  } catch {
    // A page the block tree refuses shows nothing to sample.
  }
  return lines.map((line) => ({ text: line.text, tokens: readerTokens(line.text) })).filter((line) => line.tokens.length >= 5);
}

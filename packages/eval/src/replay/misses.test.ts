import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { boilerplateMatchCause, countContentMiss, explainContentMiss, noCounts, type ReplayedPage, searchRates, sumCounts } from './misses.js';
import type { Phrase } from './phrases.js';
import { linkTexts, readerWords } from './readerWords.js';

const inside = (text: string, goldLine = 3, goldLines = 8): Phrase => ({
  kind: 'inside',
  pageId: 'p',
  words: readerWords(text),
  query: `"${text}"`,
  goldLine,
  goldLines,
  lineWords: [12],
});
const across = (first: string, second: string, goldLine = 3): Phrase => ({
  kind: 'across',
  pageId: 'p',
  words: readerWords(`${first} ${second}`),
  query: `"${first} ${second}"`,
  split: readerWords(first).length,
  goldLine,
  goldLines: 8,
  lineWords: [12, 12],
});
const page = (overrides: Partial<ReplayedPage>): ReplayedPage => ({
  stored: true,
  extracted: true,
  indexed: true,
  duplicateOf: null,
  searchText: '',
  extractedText: '',
  linkTexts: [],
  ...overrides,
});

describe('the layer that lost a phrase', () => {
  const phrase = inside('otters were seen near the mill');
  it('is the crawl when the page was never stored', () => {
    assert.deepEqual(explainContentMiss(phrase, page({ stored: false, extracted: false, indexed: false })), {
      layer: 'not crawled',
      cause: 'page not indexed',
    });
  });

  it('is the extraction when the page has no search document and its extraction lacks the words, or it has none', () => {
    assert.equal(explainContentMiss(phrase, page({ extracted: false, indexed: false })).layer, 'not extracted');
    assert.equal(explainContentMiss(phrase, page({ indexed: false, extractedText: 'something else' })).layer, 'not extracted');
  });

  it('is indexing when the extraction holds the words and the search document does not', () => {
    const extractedText = 'Otters were seen near the mill.';
    assert.equal(explainContentMiss(phrase, page({ indexed: false, extractedText })).layer, 'extracted, not indexed');
    assert.deepEqual(explainContentMiss(phrase, page({ extractedText, searchText: 'other text' })), {
      layer: 'extracted, not indexed',
      cause: 'extracted but not in the index',
    });
  });

  it('is the search when the indexed text holds the words as a run (case and punctuation aside)', () => {
    const miss = explainContentMiss(phrase, page({ searchText: 'Yes: OTTERS were seen, near the mill!' }));
    assert.equal(miss.layer, 'search failed');
    assert.equal(miss.cause, 'search layer');
  });

  it("tells a dropped line at the gold's edge, a short line, a paragraph and link text apart", () => {
    const searchText = 'nothing of it';
    assert.match(explainContentMiss(inside('otters were seen near the mill', 0), page({ searchText })).cause, /gold's edge/);
    assert.match(explainContentMiss(inside('otters were seen near the mill', 6, 8), page({ searchText })).cause, /gold's edge/);
    assert.match(explainContentMiss({ ...inside('otters were seen near the mill'), lineWords: [6] }, page({ searchText })).cause, /short line inside/);
    assert.match(explainContentMiss(inside('otters were seen near the mill'), page({ searchText })).cause, /a paragraph inside/);
    const links = linkTexts('<a href="/x">Otters were seen <b>near the mill</b></a>');
    assert.match(explainContentMiss(inside('otters were seen near the mill'), page({ searchText, linkTexts: links })).cause, /link text/);
  });

  it('finds the text kept between the two lines of an across phrase, or the lines in another order', () => {
    const phrase = across('the end of one', 'start of the next');
    const between = explainContentMiss(phrase, page({ searchText: 'the end of one\nPhoto: a caption\nstart of the next' }));
    assert.equal(between.cause, 'both lines indexed, text kept between them');
    assert.equal(between.between, 'Photo: a caption');
    assert.equal(explainContentMiss(phrase, page({ searchText: 'start of the next\nthe end of one' })).cause, 'both lines indexed, in another order');
  });

  it('finds words glued to a counter without a space', () => {
    assert.match(explainContentMiss(inside('otters were seen near the mill'), page({ searchText: '12otters were seen near the mill' })).cause, /glued/);
  });
});

describe('counts and rates', () => {
  it('count each miss under its script-era column and its layer, and sum sites', () => {
    const a = noCounts();
    a.phrases = 3;
    a.found = 1;
    countContentMiss(a, { layer: 'search failed', cause: 'search layer' });
    countContentMiss(a, { layer: 'not crawled', cause: 'page not indexed' });
    const b = noCounts();
    b.phrases = 1;
    countContentMiss(b, { layer: 'not extracted', cause: 'extraction dropped a line: a paragraph inside' });
    const sum = sumCounts([a, b]);
    assert.equal(sum.phrases, 4);
    assert.deepEqual([sum.extraction, sum.searchLayer, sum.notIndexed], [1, 1, 1]);
    assert.deepEqual(sum.layers, { 'not crawled': 1, 'not extracted': 1, 'extracted, not indexed': 0, 'search failed': 1 });
  });

  it('give each kind the share found, and none for a kind with no phrases', () => {
    const found = { ...noCounts(), phrases: 4, found: 3 };
    assert.deepEqual(searchRates({ inside: found, across: noCounts(), boilerplate: { ...noCounts(), phrases: 10, found: 1 } }), {
      inside: 0.75,
      across: null,
      boilerplate: 0.1,
    });
  });
});

describe('why a boilerplate phrase matched', () => {
  const words = readerWords('subscribe to our weekly newsletter today');
  it('says when the phrase straddles the gold', () => {
    assert.match(
      boilerplateMatchCause(words, 'Subscribe to our weekly newsletter today', 'subscribe to our weekly', []).cause,
      /straddles the gold's edge \(4 of 6/,
    );
  });
  it('says kept link text, first line, or other kept text', () => {
    const links = linkTexts('<a>Subscribe to our weekly newsletter today</a>');
    assert.equal(boilerplateMatchCause(words, 'x\nSubscribe to our weekly newsletter today', '', links).cause, 'kept link text (related links, menus)');
    assert.equal(boilerplateMatchCause(words, 'Subscribe to our weekly newsletter today', '', []).cause, 'kept other text (first line)');
    assert.equal(boilerplateMatchCause(words, 'a\nSubscribe to our weekly newsletter today', '', []).line, 1);
    assert.equal(boilerplateMatchCause(words, 'unrelated', '', []).cause, 'search matched text the reader words do not hold');
  });
});

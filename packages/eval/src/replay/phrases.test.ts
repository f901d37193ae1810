import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { samplePhrases, type SamplePage } from './phrases.js';
import { holdsRun, padded, readerWords } from './readerWords.js';

const article = (n: number): SamplePage => ({
  id: `site/${n}`,
  gold: [
    `Headline number ${n} about river otters returning`,
    `The council said on Monday that otters ${n} were seen near the old mill bridge again this spring.`,
    `Volunteers counted footprints along both banks and photographed two young animals feeding at dawn.`,
  ].join('\n'),
  html: `<html><body><nav><a href="/">Home page of the riverside weekly gazette</a></nav><h1>Headline number ${n} about river otters returning</h1>
    <p>The council said on Monday that otters ${n} were seen near the old mill bridge again this spring.</p>
    <p>Volunteers counted footprints along both banks and photographed two young animals feeding at dawn.</p>
    <footer>Copyright the riverside weekly gazette, all rights reserved worldwide</footer></body></html>`,
});
const pages = Array.from({ length: 6 }, (_, i) => article(i + 1));

describe('phrase sampling', () => {
  it('is the same for the same pages and seed, and differs for another seed', () => {
    assert.deepEqual(samplePhrases('example.org', pages, 10, '1'), samplePhrases('example.org', pages, 10, '1'));
    assert.notDeepEqual(samplePhrases('example.org', pages, 10, '1').inside, samplePhrases('example.org', pages, 10, '2').inside);
  });

  it('takes inside phrases of 5-8 words from one gold line of their page', () => {
    const { inside } = samplePhrases('example.org', pages, 10, '1');
    assert.ok(inside.length > 0);
    for (const phrase of inside) {
      assert.ok(phrase.words.length >= 5 && phrase.words.length <= 8, phrase.query);
      const page = pages.find((candidate) => candidate.id === phrase.pageId)!;
      const line = page.gold.split('\n')[phrase.goldLine!]!;
      assert.ok(holdsRun(line, phrase.words), `${phrase.query} not in line ${phrase.goldLine}`);
      assert.deepEqual(readerWords(phrase.query), phrase.words, 'the query shows the words as the text does');
    }
  });

  it('takes across phrases as the end of one gold line and the start of the next', () => {
    const { across } = samplePhrases('example.org', pages, 10, '1');
    assert.ok(across.length > 0);
    for (const phrase of across) {
      const page = pages.find((candidate) => candidate.id === phrase.pageId)!;
      const lines = page.gold.split('\n');
      const first = readerWords(lines[phrase.goldLine!]!);
      const second = readerWords(lines[phrase.goldLine! + 1]!);
      assert.deepEqual(phrase.words.slice(0, phrase.split), first.slice(-phrase.split!));
      assert.deepEqual(phrase.words.slice(phrase.split), second.slice(0, phrase.words.length - phrase.split!));
    }
  });

  it('takes boilerplate phrases from shown lines that no gold of the site holds', () => {
    const { boilerplate } = samplePhrases('example.org', pages, 10, '1');
    assert.ok(boilerplate.length > 0);
    const golds = pages.map((page) => padded(readerWords(page.gold)));
    for (const phrase of boilerplate) {
      assert.ok(!golds.some((gold) => gold.includes(padded(phrase.words))), phrase.query);
      assert.match(phrase.shownLine ?? '', /riverside weekly gazette/);
    }
  });

  it('never repeats a phrase, and skips phrases of function words or digits only', () => {
    const repetitive: SamplePage[] = [{ id: 'a', gold: 'of the and to in 2024 of the and\nof the and to in 2024 of the and', html: '<p>x</p>' }];
    const sampled = samplePhrases('example.org', repetitive, 5, '1');
    assert.equal(sampled.inside.length, 0);
    assert.equal(sampled.across.length, 0);
    const { inside } = samplePhrases('example.org', pages, 40, '1');
    assert.equal(new Set(inside.map((phrase) => phrase.words.join(' '))).size, inside.length);
  });
});

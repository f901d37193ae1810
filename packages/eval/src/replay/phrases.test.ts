import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mostlyInGold, samplePhrases, type SamplePage } from './phrases.js';
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

  it('takes no inside or across phrase from a page whose gold is not its text, whose gold still keeps its lines out of the boilerplate', () => {
    const flagged = { ...article(7), gold: `${article(7).gold}\nHome page of the riverside weekly gazette`, goldIsNotItsText: true };
    const sampled = samplePhrases('example.org', [...pages, flagged], 40, '1');
    assert.ok(sampled.inside.length > 0 && sampled.across.length > 0);
    for (const phrase of [...sampled.inside, ...sampled.across]) assert.notEqual(phrase.pageId, flagged.id, phrase.query);
    for (const phrase of sampled.boilerplate) assert.doesNotMatch(phrase.shownLine ?? '', /Home page/, phrase.query);
    assert.deepEqual(samplePhrases('example.org', [flagged], 10, '1').inside, []);
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

  it("takes no boilerplate phrase from a line that is mostly its page's gold, edited by the gold's author", () => {
    const edited: SamplePage = {
      id: 'site/edited',
      gold: 'Headline about the airline\nHe further said the airline would not be able to get investors if it is not flying.',
      html: `<html><body><h1>Headline about the airline</h1>
        <p>The SBI further said the airline would not be able to get investors if it is not flying.</p>
        <footer>Copyright the riverside weekly gazette, all rights reserved worldwide</footer></body></html>`,
    };
    const { boilerplate } = samplePhrases('example.org', [edited], 40, '1');
    assert.ok(boilerplate.length > 0);
    for (const phrase of boilerplate) assert.match(phrase.shownLine ?? '', /riverside weekly gazette/, phrase.query);
  });

  it("counts a line as the gold's when three quarters of its words sit in runs of three the gold holds", () => {
    const gold = padded(readerWords('he further said the airline would not be able to get investors'));
    assert.ok(mostlyInGold(readerWords('The SBI further said the airline would not be able to get investors'), gold));
    // A breadcrumb ending in the headline: half its words are the gold's, the rest the site's.
    const headline = padded(readerWords('Smoking among teenagers still rising after three years'));
    assert.ok(!mostlyInGold(readerWords('Health news home › Latest news › Smoking among teenagers still rising'), headline));
    assert.ok(!mostlyInGold(readerWords('the airline would'), padded(readerWords('airline'))));
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

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { terms } from '../ce/features.js';
import { WordRuns } from './wordRuns.js';

const lines = (...texts: string[]) => texts.map((text) => terms(text));
const paragraph = 'the council voted on tuesday to keep the harbour market open through the winter months';

describe('WordRuns', () => {
  it('holds a line cut differently: a counter glued to it, or its sentence split over two lines', () => {
    const other = new WordRuns(lines('Headline of the day', 'the council voted on tuesday to keep', 'the harbour market open through the winter months'));
    assert.ok(other.holdsMostOf(terms(`0${paragraph}`)));
    assert.ok(other.holdsMostOf(terms(paragraph)));
  });

  it('does not hold a line of which it has only a sentence or scattered words', () => {
    const teaser = new WordRuns(lines('the council voted on tuesday', 'more news: winter months ahead'));
    assert.equal(teaser.holdsMostOf(terms(paragraph)), false);
  });

  it('holds a line shorter than a run only when it occurs whole', () => {
    const other = new WordRuns(lines(paragraph));
    assert.ok(other.holdsMostOf(terms('harbour market')));
    assert.equal(other.holdsMostOf(terms('market harbour')), false);
    assert.ok(other.holdsMostOf([]));
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { collapseWhitespace } from './whitespace.js';

describe('collapseWhitespace', () => {
  it('joins words that invisible format characters split, as a browser shows them', () => {
    assert.equal(collapseWhitespace('magnifi\u00adcent rhino\u200bceros light\u2060house cat\ufeffalog'), 'magnificent rhinoceros lighthouse catalog');
  });

  it('drops C0 and C1 controls, and does not let a dropped one keep two spaces apart', () => {
    assert.equal(collapseWhitespace('(c)\u001d To\u0085 a \u0096 forum\u0001.'), '(c) To a forum.');
    assert.equal(collapseWhitespace('\u00ad\n  word \u200b '), 'word');
  });

  it('keeps ZWNJ and ZWJ, which change how Persian, Indic scripts and emoji render', () => {
    assert.equal(collapseWhitespace('می\u200cخواهم \ud83d\udc69\u200d\ud83d\udcbb'), 'می\u200cخواهم \ud83d\udc69\u200d\ud83d\udcbb');
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { collapseWhitespace } from './whitespace.js';

describe('collapseWhitespace', () => {
  it('joins words that invisible format characters split, as a browser shows them', () => {
    assert.equal(collapseWhitespace('magnifi\u00adcent rhino\u200bceros light\u2060house cat\ufeffalog'), 'magnificent rhinoceros lighthouse catalog');
  });

  it('drops C0 controls, and does not let a dropped character keep two spaces apart', () => {
    assert.equal(collapseWhitespace('(c)\u001d To a \u0001 forum\u0001.'), '(c) To a forum.');
    assert.equal(collapseWhitespace('\u00ad\n  word \u200b '), 'word');
  });

  it('reads a C1 control as the windows-1252 character a mis-decoded page meant, and drops the five it has none for', () => {
    assert.equal(
      collapseWhitespace('don\u0092t \u0093quote\u0094 \u0096 \u0080 5\u0081\u008d\u008f\u0090\u009d'),
      'don\u2019t \u201cquote\u201d \u2013 \u20ac 5',
    );
  });

  it('keeps ZWNJ and ZWJ, which change how Persian, Indic scripts and emoji render', () => {
    assert.equal(collapseWhitespace('می\u200cخواهم \ud83d\udc69\u200d\ud83d\udcbb'), 'می\u200cخواهم \ud83d\udc69\u200d\ud83d\udcbb');
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { indexedWords, parseQuery } from './query.js';

describe('the query language on invisible characters', () => {
  it('reads a word a soft hyphen or a zero-width space splits as one word, as extraction stores it', () => {
    assert.deepEqual(parseQuery('light\u00adhouse rhino\u200bceros').terms, ['lighthouse', 'rhinoceros']);
    assert.deepEqual(parseQuery('"a magnifi\u00adcent light\u2060house"').phrases, [['a', 'magnificent', 'lighthouse']]);
    assert.equal(indexedWords('A magnifi\u00adcent light\ufeffhouse'), 'a magnificent lighthouse');
  });
});

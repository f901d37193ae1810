import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CJK_CHAR_WEIGHT, textLength } from './textLength.js';

describe('textLength', () => {
  it('counts non-space characters, a CJK character as CJK_CHAR_WEIGHT, punctuation and letters of other scripts as one', () => {
    assert.equal(textLength('  ab\u00a0c\u3000d\n'), 4);
    assert.equal(textLength('北京，'), 2 * CJK_CHAR_WEIGHT + 1);
    assert.equal(textLength('ひらがなカタカナ'), 8 * CJK_CHAR_WEIGHT);
    assert.equal(textLength('한국'), 2 * CJK_CHAR_WEIGHT);
    assert.equal(textLength('Москва ไทย'), 9);
  });
});

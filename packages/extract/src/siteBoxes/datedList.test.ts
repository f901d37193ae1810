import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { withoutDatedLists } from './datedList.js';

const line = (text: string, path = 'HTML.BODY.DIV.P') => ({ path, text });
const paragraph = 'The herons came back to the marsh this week, after a long and dry winter.';

describe('withoutDatedLists', () => {
  it('drops a box of three dated items or more inside the article, with its heading', () => {
    const blocks = [
      line(paragraph),
      line("India's deadly collapses", 'HTML.BODY.DIV.H2'),
      line('19 Dec 2012: 13 die in Wagholi', 'HTML.BODY.DIV.UL.LI'),
      line('24 Sept 2012: 6 die in Pune', 'HTML.BODY.DIV.UL.LI'),
      line('1 Sep: Man City (a)', 'HTML.BODY.DIV.UL.LI'),
      line(paragraph),
    ];
    assert.deepEqual(
      withoutDatedLists(blocks).map((block) => block.text),
      [paragraph, paragraph],
    );
  });

  it('keeps two dated items, a sentence above a list, and dated lists written otherwise', () => {
    const two = [line('Fixtures'), line('1 Sep: Man City (a)'), line('8 Sep: Hull (h)'), line(paragraph)];
    assert.equal(withoutDatedLists(two), two);
    const american = [line('March 7, 2005: a vote.'), line('March 9, 2005: a second vote.'), line('April 1, 2005: the law.')];
    assert.equal(withoutDatedLists(american), american);
    const afterSentence = [line(paragraph), line('1 Sep: Man City (a)'), line('8 Sep: Hull (h)'), line('15 Sep: Leeds (a)')];
    assert.deepEqual(
      withoutDatedLists(afterSentence).map((block) => block.text),
      [paragraph],
    );
  });
});

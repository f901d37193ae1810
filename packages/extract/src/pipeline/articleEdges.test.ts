import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildBlockTree } from '../html/blockTree.js';
import { trimLetterlessEdges, withListAfterTrailingLabel } from './articleEdges.js';

const line = (text: string, path = 'HTML.BODY.DIV.P') => ({ path, text });
const paragraph = 'The herons came back to the marsh this week, after a long and dry winter.';

describe('trimLetterlessEdges', () => {
  it('drops a counter between the headline and the first paragraph, and a vote count after the last', () => {
    const blocks = [
      line('147', 'HTML.BODY.DIV'),
      line('Herons return to the marsh', 'HTML.BODY.H1'),
      line(paragraph),
      line(paragraph),
      line('21'),
      line('***'),
    ];
    assert.deepEqual(
      trimLetterlessEdges(blocks).map((block) => block.text),
      ['Herons return to the marsh', paragraph, paragraph],
    );
  });

  it("keeps lines without letters inside the article (a table's figures) and every line of a text without a sentence", () => {
    const inside = [line('Herons return'), line(paragraph), line('12 14 16'), line(paragraph)];
    assert.equal(trimLetterlessEdges(inside), inside);
    const listing = [line('2024'), line('Herons'), line('17')];
    assert.equal(trimLetterlessEdges(listing), listing);
  });

  it('counts each CJK character as a word, so a Chinese paragraph is a sentence', () => {
    const blocks = [line('0'), line('馬來西亞發行新年龍形郵票'), line('中新社吉隆坡1月12日電馬來西亞國家郵政局公開發行')];
    assert.deepEqual(
      trimLetterlessEdges(blocks).map((block) => block.text),
      ['馬來西亞發行新年龍形郵票', '中新社吉隆坡1月12日電馬來西亞國家郵政局公開發行'],
    );
  });
});

describe('withListAfterTrailingLabel', () => {
  const page = buildBlockTree(
    `<body><div class="post"><p>${paragraph}</p><h3>Popular lighting projects:</h3><ul><li><a href="/a">All of our LED projects</a></li><li><a href="/b">A field of glowing tubes</a></li></ul>` +
      '<p>Share this post</p></div><div class="sidebar"><ul><li><a href="/c">Archives</a></li></ul></div></body>',
  );
  const text = [line(paragraph, 'HTML.BODY.DIV.P'), line('Popular lighting projects:', 'HTML.BODY.DIV.H3')];

  it("brings back the list that the text's last line introduces, and stops where the list does", () => {
    assert.deepEqual(
      withListAfterTrailingLabel(page, text).map((block) => block.text),
      [paragraph, 'Popular lighting projects:', 'All of our LED projects', 'A field of glowing tubes'],
    );
  });

  it('adds nothing after a last line without a colon, nor when no list follows it in its container', () => {
    const ending = [line(paragraph, 'HTML.BODY.DIV.P')];
    assert.equal(withListAfterTrailingLabel(page, ending), ending);
    const bare = buildBlockTree(
      `<body><div class="post"><p>${paragraph}</p><h3>Popular lighting projects:</h3></div><ul><li><a href="/c">Archives</a></li></ul></body>`,
    );
    assert.equal(withListAfterTrailingLabel(bare, text), text);
  });
});

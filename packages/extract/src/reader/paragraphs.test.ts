import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildBlockTree } from '../blockTree.js';
import { subtreeMeasures } from './measures.js';
import { paragraphsOf } from './paragraphs.js';
import { contentScores } from './scores.js';

const read = (html: string) => {
  const tree = buildBlockTree(html);
  const measures = subtreeMeasures(tree);
  const paragraphs = paragraphsOf(tree, measures, new Uint8Array(tree.blocks.length));
  return { tree, measures, paragraphs };
};

describe('paragraphs', () => {
  it("a span continues its paragraph; two line breaks and a block end it (a block's own paragraphs come before its sub-blocks')", () => {
    const { paragraphs } = read('<div>one, two <span>three</span> four<br><br>five<br>six<p>seven</p>eight</div>');
    assert.deepEqual(
      paragraphs.map((paragraph) => [paragraph.owner.tag, paragraph.chars, paragraph.commas]),
      [
        ['div', 'onetwothreefour'.length + 1, 1],
        ['div', 'fivesix'.length, 0],
        ['div', 'eight'.length, 0],
        ['p', 'seven'.length, 0],
      ],
    );
  });

  it("a paragraph element scores from its parent, a container's loose text from the container", () => {
    const { paragraphs } = read('<article><p>alone</p></article><section>loose<div>block</div></section>');
    assert.deepEqual(
      paragraphs.map((paragraph) => `${paragraph.owner.tag}>${paragraph.scoredFrom.tag}`),
      ['p>article', 'section>section', 'div>section'],
    );
  });

  it('link text counts against a paragraph: a list of linked names scores little however many commas it has', () => {
    const names = Array.from({ length: 200 }, (_, n) => `<a href="/u/${n}">reader${n}</a>`).join(', ');
    const story = '<p>The ferry strike ended on Monday, after three weeks, when the union and the harbour board agreed a new rota.</p>'.repeat(3);
    const { tree, measures, paragraphs } = read(`<div id="kudos"><p>${names}</p></div><div id="story">${story}</div>`);
    const { scores } = contentScores(tree, measures, paragraphs, true);
    const scoreOf = (id: string) => scores[tree.blocks.find((block) => block.hint.startsWith(id))?.index ?? -1] ?? 0;
    assert.ok(scoreOf('story') > scoreOf('kudos'), `story ${scoreOf('story')} vs kudos ${scoreOf('kudos')}`);
  });
});

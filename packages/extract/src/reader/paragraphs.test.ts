import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildBlockTree } from '../html/blockTree.js';
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
    const { scores } = contentScores(tree, measures, paragraphs, new Uint8Array(tree.blocks.length), true);
    const scoreOf = (id: string) => scores[tree.blocks.find((block) => block.hint.startsWith(id))?.index ?? -1] ?? 0;
    assert.ok(scoreOf('story') > scoreOf('kudos'), `story ${scoreOf('story')} vs kudos ${scoreOf('kudos')}`);
  });

  it('a section of prose scores its container as a paragraph of all its text would: the block of sections outscores its wordiest section', () => {
    const sentence = (words: string) =>
      `<p>${words}, and the guide explains what the service covers, what it costs, and how long it takes for a small team to see results from it.</p>`;
    const wordy = `<p>${Array.from({ length: 30 }, (_, n) => `step ${n}`).join(', ')} of the plan, from the first call to the final report.</p>`;
    const html = `<div id="offer"><section id="steps">${wordy}</section><section>${sentence('Pricing')}</section><section>${sentence('Timing')}</section></div>`;
    const { tree, measures, paragraphs } = read(html);
    const { scores } = contentScores(tree, measures, paragraphs, new Uint8Array(tree.blocks.length), true);
    const scoreOf = (id: string) => scores[tree.blocks.find((block) => block.hint.startsWith(id))?.index ?? -1] ?? 0;
    assert.ok(scoreOf('offer') > scoreOf('steps'), `offer ${scoreOf('offer')} vs steps ${scoreOf('steps')}`);
  });

  it('a section without a long paragraph (labels, a spec sheet) lifts its container no more than a div would', () => {
    const specs = 'Weight, 2 kg, Height, 30 cm, Width, 20 cm, Colour, grey, Power, 40 W, Noise, 52 dB';
    const scoreOfSpecs = (tag: string) => {
      const { tree, measures, paragraphs } = read(`<div id="specs"><${tag}>${specs}</${tag}><${tag}>${specs}</${tag}></div>`);
      const { scores } = contentScores(tree, measures, paragraphs, new Uint8Array(tree.blocks.length), true);
      return scores[tree.blocks.find((block) => block.hint.startsWith('specs'))?.index ?? -1];
    };
    assert.equal(scoreOfSpecs('section'), scoreOfSpecs('div'));
  });
});

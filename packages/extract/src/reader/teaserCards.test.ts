import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildBlockTree } from '../html/blockTree.js';
import { readTree } from './reader.js';
import { subtreeMeasures } from './measures.js';
import { teaserCards } from './teaserCards.js';

const paragraph = (n: number) =>
  `<p>Paragraph ${n} of the story: the council agreed the budget for the coming year, with money for repairs, staff and new projects across the town.</p>`;
const card = (n: number, title: string) =>
  `<div id="rel_${n}" class="rel_container"><div class="rel_thumb"><a href="/v/${n}"><img src="/t${n}.jpg"></a></div><div class="rel_headline">${title} <a href="/v/${n}">Watch Video</a></div></div>`;
const rail = [card(1, 'Actors star in a new play'), card(2, 'Singer engaged at last'), card(3, 'Stars deny breakup rumours')].join('');

describe('teaser cards', () => {
  it('sets aside a rail of look-alike cards, each a thumbnail, a title and a link, inside an article', () => {
    const html = `<html><body><div class="story">${paragraph(1)}${paragraph(2)}${rail}${paragraph(3)}${paragraph(4)}${paragraph(5)}</div></body></html>`;
    const tree = buildBlockTree(html);
    const marked = teaserCards(tree.blocks, subtreeMeasures(tree));
    assert.deepEqual(
      tree.blocks.filter((block) => block.hint.includes('rel_container')).map((block) => marked[block.index]),
      [1, 1, 1],
    );
    assert.equal(marked[tree.blocks.find((block) => block.hint === ' story')!.index], 0);
    const text = readTree(tree).text;
    assert.match(text, /Paragraph 3 of the story/);
    assert.doesNotMatch(text, /Watch Video|Singer engaged/);
  });

  it('keeps two cards, cards without a photo, and a listing whose cards are the page', () => {
    const two = buildBlockTree(`<html><body>${paragraph(1)}${paragraph(2)}${paragraph(3)}${paragraph(4)}${card(1, 'One')}${card(2, 'Two')}</body></html>`);
    assert.equal(teaserCards(two.blocks, subtreeMeasures(two)).some(Boolean), false);
    const noPhoto = buildBlockTree(
      `<html><body>${paragraph(1)}${paragraph(2)}${paragraph(3)}${paragraph(4)}${rail.replace(/<img[^>]*>/g, 'Thumb')}</body></html>`,
    );
    assert.equal(teaserCards(noPhoto.blocks, subtreeMeasures(noPhoto)).some(Boolean), false);
    const shop = buildBlockTree(
      `<html><body><h1>Cast iron</h1>${rail}${rail.replace(/rel_(\d)/g, 'rel_$1$1')}<footer>${'Shipping and returns. '.repeat(40)}</footer></body></html>`,
    );
    assert.equal(teaserCards(shop.blocks, subtreeMeasures(shop)).some(Boolean), false);
  });
});

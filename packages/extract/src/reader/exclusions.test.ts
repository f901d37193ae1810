import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Block, buildBlockTree } from '../html/blockTree.js';
import { excludedBlocks } from './exclusions.js';
import { subtreeMeasures } from './measures.js';

const story = `<p>${'The council agreed the budget for the coming year, with money for repairs, staff and projects. '.repeat(6)}</p>`;

describe('excludedBlocks', () => {
  it("sets aside what Bootstrap's d-none hides, trusted or not, but not what a screen class shows again", () => {
    const tree = buildBlockTree(
      `<html><body><div class="entry">${story}<div class="d-none d-print-block"><p>This document is subject to copyright.</p></div><div class="d-none d-md-block"><p>Shown on wider screens.</p></div></div></body></html>`,
    );
    const measures = subtreeMeasures(tree);
    const named = (hint: string) => tree.blocks.find((block) => block.hint.trim() === hint) as Block;
    for (const trusted of [true, false]) {
      const excluded = excludedBlocks(tree, measures, trusted);
      assert.equal(excluded[named('d-none d-print-block').index], 1);
      assert.equal(excluded[named('d-none d-md-block').index], 0);
    }
  });

  it("on a page laid out in a table, judges what sits in a cell by its own name and the cell not by the layout's", () => {
    const tree = buildBlockTree(
      `<html><body><table><tr><td class="sidebar"><div>${story}</div><div class="comment"><p>First! Great story, thanks.</p></div></td><td class="nav"><a href="/">Home</a></td></tr></table></body></html>`,
    );
    const excluded = excludedBlocks(tree, subtreeMeasures(tree), true);
    const named = (hint: string) => tree.blocks.find((block) => block.hint.trim() === hint) as Block;
    assert.equal(excluded[named('comment').index], 1);
    assert.equal(excluded[named('sidebar').index], 0);
  });

  it('sets nav, aside and footer elements and dialog and menu roles aside whatever their names, trusted or not, but not one that holds most of the page', () => {
    const tree = buildBlockTree(
      `<html><body><article class="story">${story}<aside class="pull-out"><p>A pull-out with a related link.</p></aside><footer class="article-meta"><p>Tags: council</p></footer></article><nav class="content"><a href="/">Home</a></nav></body></html>`,
    );
    const measures = subtreeMeasures(tree);
    const byTag = (tag: string) => tree.blocks.find((block) => block.tag === tag) as Block;
    for (const trusted of [true, false]) {
      const excluded = excludedBlocks(tree, measures, trusted);
      assert.deepEqual(
        ['aside', 'footer', 'nav', 'article'].map((tag) => excluded[byTag(tag).index]),
        [1, 1, 1, 0],
      );
    }
    const byRole = buildBlockTree(
      `<html><body>${story}<div role="alertdialog dialog"><p>We use cookies to make this site better for you.</p></div><ul role="menu"><li>Home</li></ul><div role="main"><p>Text.</p></div></body></html>`,
    );
    const roleExcluded = excludedBlocks(byRole, subtreeMeasures(byRole), true);
    assert.deepEqual(
      ['alertdialog', 'menu', 'main'].map((role) => roleExcluded[(byRole.blocks.find((block) => block.role === role) as Block).index]),
      [1, 1, 0],
    );
    const wrapped = buildBlockTree(`<html><body><aside>${story}</aside><p>Short note.</p></body></html>`);
    assert.equal(excludedBlocks(wrapped, subtreeMeasures(wrapped), true)[(wrapped.blocks.find((block) => block.tag === 'aside') as Block).index], 0);
  });

  it('sets a dialog aside though it holds most of the page: a dialog opens over a page, never wraps it', () => {
    const purposes = `<p>${'These cookies are set by our advertising partners to build a profile of your interests. '.repeat(8)}</p>`;
    const tree = buildBlockTree(
      `<html><body><ul class="cards"><li><a href="/a">Tomato soup</a></li><li><a href="/b">Pasta sauce</a></li></ul><div id="onetrust-pc-sdk"><div role="dialog">${purposes}</div></div></body></html>`,
    );
    const dialog = tree.blocks.find((block) => block.role === 'dialog') as Block;
    for (const trusted of [true, false]) assert.equal(excludedBlocks(tree, subtreeMeasures(tree), trusted)[dialog.index], 1);
  });

  it('sets aside a form asking for a name and an e-mail though it holds more than a quarter of the page, but not one that wraps the page', () => {
    const consent = `<p>${'I agree that the publisher may process my personal data for the subscription, as its policy states. '.repeat(4)}</p>`;
    const form = `<form class="box"><input name="name"><input type="email" name="email"><input type="hidden" name="token">${consent}</form>`;
    const paywalled = buildBlockTree(`<html><body><div>${story}</div>${form}</body></html>`);
    const signup = paywalled.blocks.find((block) => block.tag === 'form') as Block;
    assert.equal(excludedBlocks(paywalled, subtreeMeasures(paywalled), true)[signup.index], 1);
    const wrapper = buildBlockTree(`<html><body><form id="aspnetForm"><input name="q"><input type="password" name="pw">${story}</form></body></html>`);
    const whole = wrapper.blocks.find((block) => block.tag === 'form') as Block;
    assert.equal(excludedBlocks(wrapper, subtreeMeasures(wrapper), true)[whole.index], 0);
  });

  it('sets aside a photo gallery of captions when names are trusted, but not a carousel of sections with headings', () => {
    const photo = (n: number) =>
      `<li><img src="/p${n}.jpg"><div class="caption">The minister shakes hands with his host in the capital on Wednesday. Photo: Agency</div></li>`;
    const gallery = buildBlockTree(
      `<html><body><div>${story}<div class="hst-resgallery-container"><ul>${photo(1)}${photo(2)}</ul></div>${story}</div></body></html>`,
    );
    const box = gallery.blocks.find((block) => block.hint.includes('resgallery')) as Block;
    const measures = subtreeMeasures(gallery);
    assert.equal(excludedBlocks(gallery, measures, true)[box.index], 1);
    assert.equal(excludedBlocks(gallery, measures, false)[box.index], 0);
    const slides = buildBlockTree(
      `<html><body><div>${story}<div class="carousel"><div><img src="/a.jpg"><h3>Data protection</h3><p>Keep your data ownership.</p></div></div>${story}</div></body></html>`,
    );
    const carousel = slides.blocks.find((block) => block.hint.includes('carousel')) as Block;
    assert.equal(excludedBlocks(slides, subtreeMeasures(slides), true)[carousel.index], 0);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractMainBlock } from './mainBlock.js';
import { FIGURE_2_PARAGRAPH, sitePage, uniqueParagraph } from '../testing/sitePages.js';

describe('mainblock (the single-page fallback)', () => {
  it('keeps the article in order, drops navigation, footer, link lists and named boilerplate', () => {
    const page = sitePage(
      `<h1>A headline</h1><p>${uniqueParagraph(1, 50)}</p><div class="ad-banner"><p>${uniqueParagraph(9, 20)}</p></div>${FIGURE_2_PARAGRAPH}<p>${uniqueParagraph(2, 70)}</p>`,
      `<ul><li><a href="/1">${uniqueParagraph(3, 5)}</a></li><li><a href="/2">${uniqueParagraph(4, 5)}</a></li></ul>`,
    );
    const text = extractMainBlock(page).text;
    assert.ok(text.indexOf(uniqueParagraph(1, 50)) < text.indexOf('the US House of Representatives'));
    assert.ok(text.indexOf('the US House of Representatives') < text.indexOf(uniqueParagraph(2, 70)));
    for (const boilerplate of ['Weather', 'Copyright', uniqueParagraph(9, 20), uniqueParagraph(3, 5)]) assert.ok(!text.includes(boilerplate), boilerplate);
  });

  it('answers a page without prose with no text and says so', () => {
    const result = extractMainBlock('<ul><li><a href="/a">Home</a></li></ul>');
    assert.equal(result.text, '');
    assert.match(result.warnings.join(' '), /no prose/);
  });
});

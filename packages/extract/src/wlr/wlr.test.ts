import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractWithRatio } from './wlr.js';
import { uniqueParagraph } from '../testing/sitePages.js';

const MENU = '<ul><li><a href="/">Home</a></li><li><a href="/a">News</a></li><li><a href="/b">Sport</a></li><li><a href="/c">Weather</a></li></ul>';

describe('wlr', () => {
  it('finds the main text split by an ad banner, in order, without menu or footer', () => {
    const html =
      `<body>${MENU}<div id="story"><p>${uniqueParagraph(1, 60)}</p><div class="ad"><a href="/ad">Buy now</a></div><p>${uniqueParagraph(2, 60)}</p><p>${uniqueParagraph(3, 60)}</p></div>` +
      `<div id="footer"><p>Copyright</p><p><a href="/x">Help</a> | <a href="/y">Contact</a></p></div></body>`;
    const text = extractWithRatio(html).text;
    assert.ok(text.indexOf(uniqueParagraph(1, 60)) >= 0 && text.indexOf(uniqueParagraph(1, 60)) < text.indexOf(uniqueParagraph(3, 60)), text);
    assert.ok(!text.includes('Weather') && !text.includes('Copyright'), text);
  });

  it('counts a sentence with inline formatting as one leaf (paper, Example 4.3)', () => {
    const html = `<body>${MENU}<div><p><em>Gisela Molina</em>, author of the book <strong>Ethical Life</strong>, will be interviewed tomorrow in <a href="http://www.bbc.com">BBC</a>. ${uniqueParagraph(4, 40)}</p></div></body>`;
    assert.match(extractWithRatio(html).text, /^Gisela Molina, author of the book Ethical Life, will be interviewed tomorrow in BBC\./);
  });

  it('reads nested tables and skips hidden text', () => {
    const html = `<body><table><tr><td>${MENU}</td><td><table><tr><td><p>${uniqueParagraph(5, 80)}</p><p style="display:none">${uniqueParagraph(6, 80)}</p><p>${uniqueParagraph(7, 50)}</p></td></tr></table></td></tr></table></body>`;
    const text = extractWithRatio(html).text;
    assert.ok(text.includes(uniqueParagraph(5, 80)) && text.includes(uniqueParagraph(7, 50)));
    assert.ok(!text.includes(uniqueParagraph(6, 80)));
  });

  it('answers a page without words with no text, and deep nesting without overflowing', () => {
    assert.equal(extractWithRatio('<body><img src="a.png"></body>').text, '');
    const deep = `${'<div>'.repeat(100_000)}deep words here${'</div>'.repeat(100_000)}`;
    assert.equal(extractWithRatio(deep).text, 'deep words here');
  });
});

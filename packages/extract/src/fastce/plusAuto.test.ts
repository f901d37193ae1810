import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { preparedExtractor, templateMethodByName } from '../methods/methods.js';
import { samplePages, sitePage, uniqueParagraph } from '../testing/sitePages.js';

describe('fastce+auto', () => {
  const prepared = preparedExtractor(templateMethodByName('fastce+auto'), samplePages(12));

  it('keeps what the template and the single-page reading agree on, in order', () => {
    const article = [uniqueParagraph(901), uniqueParagraph(902), uniqueParagraph(903)];
    // A "share" line the site repeats inside every article: Readability keeps it, the template does not.
    const share = 'Share this story with your friends on the village noticeboard and at the harbour market';
    const pages = samplePages(12).map((page) => page.replace('</div>\n<div class="footer">', `<p>${share}</p></div>\n<div class="footer">`));
    const withShare = preparedExtractor(templateMethodByName('fastce+auto'), pages);
    const html = sitePage(`<h1>Headline</h1>${article.map((p) => `<p>${p}</p>`).join('')}`, `<p>${share}</p>`);
    const result = withShare(html);
    let at = -1;
    for (const paragraph of article) {
      const found = result.text.indexOf(paragraph);
      assert.ok(found > at, `paragraph missing or out of order:\n${result.text}`);
      at = found;
    }
    assert.ok(!result.text.includes(share), 'the repeated share line is gone');
    assert.ok(!/The Daily Example|Copyright/.test(result.text), result.text);
  });

  it('reads a page the template does not fit whole: both readings fall back to the page alone', () => {
    const foreign = `<html><body><main><article>${[1, 2, 3].map((i) => `<p>${uniqueParagraph(700 + i, 40)}</p>`).join('')}</article></main></body></html>`;
    const result = prepared(foreign);
    for (const i of [1, 2, 3]) assert.ok(result.text.includes(uniqueParagraph(700 + i, 40)), result.text);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { methodByName } from '../methods/methods.js';
import { ExtractionError } from '../result/errors.js';
import { FIGURE_2_PARAGRAPH, sitePage, uniqueParagraph } from '../testing/sitePages.js';

describe('readability (the peer baseline)', () => {
  it('is a single-page method that keeps the article, in order, and drops the navigation', () => {
    const method = methodByName('readability');
    assert.equal(method.kind, 'single');
    if (method.kind !== 'single') return;
    const page = sitePage(`<h1>A headline</h1>${FIGURE_2_PARAGRAPH}<p>${uniqueParagraph(1, 60)}</p><p>${uniqueParagraph(2, 60)}</p>`);
    const result = method.extract(page);
    assert.ok(result.text.includes('the US House of Representatives unanimously passed'), result.text);
    assert.ok(result.text.indexOf(uniqueParagraph(1, 60)) < result.text.indexOf(uniqueParagraph(2, 60)));
    assert.ok(!result.text.includes('Weather'));
  });

  it('answers a page without an article with no text and says so', () => {
    const method = methodByName('readability');
    if (method.kind !== 'single') return assert.fail('readability must be single-page');
    const result = method.extract('<html><body></body></html>');
    assert.equal(result.text, '');
    assert.match(result.warnings.join(' '), /no article/);
  });

  it('reads each page on its own, though every page shares one parser', () => {
    const method = methodByName('readability');
    if (method.kind !== 'single') return assert.fail('readability must be single-page');
    const first = sitePage(`<h1>First</h1><p>${uniqueParagraph(3, 60)}</p><p>${uniqueParagraph(4, 60)}</p>`);
    const second = sitePage(`<h1>Second</h1><p>${uniqueParagraph(5, 60)}</p><p>${uniqueParagraph(6, 60)}</p>`);
    const alone = method.extract(first).text;
    assert.ok(alone.includes(uniqueParagraph(3, 60)), alone);
    const other = method.extract(second).text;
    assert.ok(other.includes(uniqueParagraph(5, 60)) && !other.includes(uniqueParagraph(3, 60)), other);
    assert.equal(method.extract(first).text, alone);
  });

  it('refuses a page of more than 100,000 elements with a typed error, and reads a page of 1,000 lines', () => {
    const method = methodByName('readability');
    if (method.kind !== 'single') return assert.fail('readability must be single-page');
    const lines = (count: number) => `<html><body><p>${'a line of words<br>'.repeat(count)}</p></body></html>`;
    assert.throws(
      () => method.extract(lines(100_000)),
      (error: unknown) => error instanceof ExtractionError && error.code === 'too-many-elements',
    );
    assert.doesNotThrow(() => method.extract(lines(1_000)));
  });
});

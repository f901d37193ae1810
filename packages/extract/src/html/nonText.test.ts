import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractReader } from '../reader/reader.js';
import { blockLines } from './blockLines.js';
import { buildBlockTree } from './blockTree.js';
import { buildDom, renderDom } from './dom.js';
import { DEFAULT_LIMITS } from './limits.js';
import { LONG_NON_TEXT_CHARS, withoutLongNonText } from './nonText.js';

const article =
  '<article><h1>Harbour walls repaired</h1><p>The council repaired the harbour walls after the winter storms damaged them badly.</p><p>Fishing boats may use the inner harbour again from Monday morning.</p></article>';
const overTheCap = DEFAULT_LIMITS.maxInputChars + 500_000;

describe('a page over the input cap', () => {
  it('keeps the text that follows a 4.5 MB attribute (an inline data: image)', () => {
    const html = `<html><body><img alt="map" src="data:image/png;base64,${'A'.repeat(overTheCap)}">${article}</body></html>`;
    const tree = buildBlockTree(html);
    const lines = blockLines(tree.root).lines.map((line) => line.text);
    assert.deepEqual(lines, [
      'Harbour walls repaired',
      'The council repaired the harbour walls after the winter storms damaged them badly.',
      'Fishing boats may use the inner harbour again from Monday morning.',
    ]);
    assert.match(tree.warnings.join(' '), /long attribute values, scripts, styles and comments dropped/);
    assert.doesNotMatch(tree.warnings.join(' '), /truncated/);
    assert.match(extractReader(html).text, /Fishing boats may use the inner harbour again/);
    assert.match(renderDom(buildDom(html).root).join(' '), /Fishing boats may use the inner harbour again/);
  });

  it('keeps the text that follows a huge inline script, style and comment', () => {
    const third = Math.ceil(overTheCap / 3);
    const html = `<html><head><style>.a{color:red}${' '.repeat(third)}</style><script>window.state = "${'x'.repeat(third)}";</script></head><body><!--${'-'.repeat(third)} -->${article}</body></html>`;
    const text = blockLines(buildBlockTree(html).root)
      .lines.map((line) => line.text)
      .join('\n');
    assert.match(text, /^Harbour walls repaired\n/);
    assert.doesNotMatch(text, /window\.state|color:red/);
  });

  it('still cuts text itself when the page is over the cap with text alone', () => {
    const tree = buildBlockTree(`<p data-x="${'y'.repeat(LONG_NON_TEXT_CHARS)}">${'word '.repeat(1_000_000)}</p>`);
    assert.match(tree.warnings.join(' '), /dropped/);
    assert.match(tree.warnings.join(' '), /truncated/);
  });
});

describe('withoutLongNonText', () => {
  it('empties only long values and keeps every element and attribute', () => {
    const long = 'z'.repeat(LONG_NON_TEXT_CHARS);
    const short = 'z'.repeat(LONG_NON_TEXT_CHARS - 1);
    const { html, droppedChars } = withoutLongNonText(`<p a="${long}" b='${short}' c=${long} d>t</p><script>${long}</script><title>${long}</title>`);
    assert.equal(html, `<p a="" b='${short}' c="" d>t</p><script></script><title>${long}</title>`);
    assert.equal(droppedChars, 3 * LONG_NON_TEXT_CHARS);
  });

  it('returns the page itself when nothing is long', () => {
    const page = `<div class="x">${article}</div>`;
    assert.equal(withoutLongNonText(page).html, page);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildBlockTree } from './blockTree.js';
import { buildDom, renderDom } from './dom.js';
import { blockLines } from './blockLines.js';

/** A forum theme's body opens a CDATA section it never closes. */
const page =
  '<html><body><![CDATA[\n<div id="top"></div><div class="thread"><p>First post of the thread.</p><p>A reply to it.</p></div><script>//<![CDATA[\nvar a = 1;\n//]]></script></body></html>';

describe('CDATA outside SVG and MathML', () => {
  it('is a bogus comment that ends at the next ">", as in a browser: the page after it is read', () => {
    assert.deepEqual(
      blockLines(buildBlockTree(page).root).lines.map((line) => line.text),
      ['First post of the thread.', 'A reply to it.'],
    );
    assert.deepEqual(renderDom(buildDom(page).root), ['First post of the thread.', 'A reply to it.']);
  });
});

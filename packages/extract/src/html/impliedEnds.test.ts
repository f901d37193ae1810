import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildBlockTree } from './blockTree.js';
import { buildDom, type DomNode } from './dom.js';

const blockPaths = (html: string): string[] =>
  buildBlockTree(html)
    .blocks.slice(2)
    .map((block) => block.path);

function domPaths(html: string): string[] {
  const paths: string[] = [];
  const walk = (node: DomNode, path: string): void => {
    for (const child of node.children) {
      if (child.name === '#text') continue;
      const childPath = `${path}.${child.name.toUpperCase()}`;
      paths.push(childPath);
      walk(child, childPath);
    }
  };
  walk(buildDom(html).root, 'BODY');
  return paths;
}

describe('elements a browser closes implicitly', () => {
  it('block tree: an open paragraph, list item or cell ends at the next one, through open inline elements', () => {
    assert.deepEqual(blockPaths('<p><font>one<p>two<p>three</font>'), ['HTML.BODY.P', 'HTML.BODY.P', 'HTML.BODY.P']);
    assert.deepEqual(blockPaths('<ul><li><b>a<p>x<li>b</ul>'), ['HTML.BODY.UL', 'HTML.BODY.UL.LI', 'HTML.BODY.UL.LI.P', 'HTML.BODY.UL.LI']);
    assert.deepEqual(blockPaths('<table><tr><td>a<p>x<td>b<tr><td><p>c</table>'), [
      'HTML.BODY.TABLE',
      'HTML.BODY.TABLE.TR',
      'HTML.BODY.TABLE.TR.TD',
      'HTML.BODY.TABLE.TR.TD.P',
      'HTML.BODY.TABLE.TR.TD',
      'HTML.BODY.TABLE.TR',
      'HTML.BODY.TABLE.TR.TD',
      'HTML.BODY.TABLE.TR.TD.P',
    ]);
    assert.deepEqual(blockPaths('<p>intro<div>block</div>'), ['HTML.BODY.P', 'HTML.BODY.DIV']);
  });

  it('block tree: nested lists and tables stay nested', () => {
    assert.deepEqual(blockPaths('<ul><li>a<ul><li>b</ul></ul>'), ['HTML.BODY.UL', 'HTML.BODY.UL.LI', 'HTML.BODY.UL.LI.UL', 'HTML.BODY.UL.LI.UL.LI']);
    assert.deepEqual(blockPaths('<table><tr><td><table><tr><td>in</table>out</table>'), [
      'HTML.BODY.TABLE',
      'HTML.BODY.TABLE.TR',
      'HTML.BODY.TABLE.TR.TD',
      'HTML.BODY.TABLE.TR.TD.TABLE',
      'HTML.BODY.TABLE.TR.TD.TABLE.TR',
      'HTML.BODY.TABLE.TR.TD.TABLE.TR.TD',
    ]);
  });

  it('compact DOM: the same rule', () => {
    assert.deepEqual(domPaths('<p><font>one<p>two'), ['BODY.P', 'BODY.P.FONT', 'BODY.P']);
    assert.deepEqual(domPaths('<ul><li>a<p>x<li>b</ul>'), ['BODY.UL', 'BODY.UL.LI', 'BODY.UL.LI.P', 'BODY.UL.LI']);
  });

  it('a named anchor is not a link: its unclosed text is not link text', () => {
    const tree = buildBlockTree('<table><tr><a name="intro"><td>Plain words of the page</td><td><a href="/x">a link</a></td></tr></table>');
    const cells = tree.blocks.filter((block) => block.tag === 'td');
    assert.equal(cells[0]?.linkChars, 0);
    assert.equal(cells[1]?.linkChars, 'a link'.length);
  });
});

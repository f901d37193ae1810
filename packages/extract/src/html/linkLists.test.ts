import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildBlockTree } from './blockTree.js';
import { isLinkListEntry, linksAreContent } from './linkLists.js';

const page = `<html><body><article>
<p><a href="/story">A paragraph that is mostly one long link to another story</a>.</p>
<ul><li id="related"><a href="/a">Related: the harbour wall is rebuilt</a></li><li id="point">A bulleted point of the article, in its own words, with <a href="/b">a link</a>.</li></ul>
</article></body></html>`;

describe('link lists', () => {
  const { blocks } = buildBlockTree(page);
  const byTag = (tag: string) => blocks.filter((block) => block.tag === tag);

  it('an entry of a list that is mostly link text is a link-list entry; one in its own words is not', () => {
    assert.deepEqual(
      byTag('li').map((block) => isLinkListEntry(block)),
      [true, false],
    );
  });

  it('a paragraph that is mostly a link is no list entry', () => {
    assert.equal(isLinkListEntry(byTag('p')[0] as (typeof blocks)[number]), false);
  });

  it('an article over 0.3 link text is itself a list of links', () => {
    assert.equal(linksAreContent(31, 100), true);
    assert.equal(linksAreContent(30, 100), false);
  });
});

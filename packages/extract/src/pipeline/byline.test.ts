import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pageLines } from '../html/blockLines.js';
import { buildBlockTree } from '../html/blockTree.js';
import { isByline, withBylineUnderHeadline } from './byline.js';

describe('isByline', () => {
  it('reads "By …", "Posted by …", "Post written by …" and an "Author:" label as bylines, in any case', () => {
    for (const line of [
      'By ABC NEWS',
      'by Alexandre Roche on Thursday, January 12, 2012 at 10:00am',
      'Posted by Max Fisher on October 29, 2012',
      'Post written by Leo Babauta.',
      'Date:November 2, 2012 | Category:Tips | Author:Mary Boone',
    ]) {
      assert.ok(isByline(line), line);
    }
  });

  it('passes over datelines, sentences that start with "By", "by" inside a line, and a label without a name', () => {
    for (const line of [
      'July 24, 2012 5:44 PM',
      `By the end of the week ${'the council had met again and again '.repeat(3)}`,
      'Photographs taken by the agency',
      'Bystanders gathered outside',
      'Author:',
    ]) {
      assert.ok(!isByline(line), line);
    }
  });
});

describe('withBylineUnderHeadline', () => {
  const story = 'The council met on Tuesday and voted to reopen the old harbour bridge to traffic.';
  const page = (header: string) => buildBlockTree(`<h1>Harbour bridge reopens</h1>${header}<div class="story"><p>${story}</p></div>`);
  const textOf = (tree: ReturnType<typeof buildBlockTree>, ...texts: string[]) => pageLines(tree).filter((line) => texts.includes(line.text));
  const isH1 = (line: { path: string }) => line.path.endsWith('.H1');

  it("puts the page's byline under the headline, after the standfirst the text holds, and passes over a dateline", () => {
    const standfirst = 'The mayor cut the ribbon before a crowd of farmers and school children';
    const tree = page(`<p class="dek">${standfirst}</p><p class="byline">By <a href="/authors/jo">Jo Smith</a></p><p>12 May 2012</p>`);
    const text = textOf(tree, 'Harbour bridge reopens', standfirst, story);
    assert.deepEqual(
      withBylineUnderHeadline(tree, text, isH1).map((line) => line.text),
      ['Harbour bridge reopens', standfirst, 'By Jo Smith', story],
    );
  });

  it('leaves the text as it is without a headline first, with a byline the site repeats, or with none under the headline', () => {
    const tree = page('<p class="byline">By Jo Smith</p>');
    const text = textOf(tree, 'Harbour bridge reopens', story);
    assert.deepEqual(withBylineUnderHeadline(tree, text.slice(1), isH1), text.slice(1), 'no headline first');
    assert.equal(
      withBylineUnderHeadline(tree, text, isH1, (line) => line.text === 'By Jo Smith'),
      text,
      "the site's line",
    );
    const far = page('<ul><li>Share this story</li><li>Print this page</li><li>Email a friend</li><li>Read the comments</li></ul><p>By Jo Smith</p>');
    const farText = textOf(far, 'Harbour bridge reopens', story);
    assert.equal(withBylineUnderHeadline(far, farText, isH1), farText, 'more than four lines under the headline');
  });

  it("passes over a toolbar's lines of one or two words to the byline under them", () => {
    const tree = page('<ul><li>Text Size</li><li>Print</li><li>E-mail</li><li>Reprints</li><li>Share</li></ul><p>By Jo Smith</p>');
    const text = textOf(tree, 'Harbour bridge reopens', story);
    assert.deepEqual(
      withBylineUnderHeadline(tree, text, isH1).map((line) => line.text),
      ['Harbour bridge reopens', 'By Jo Smith', story],
    );
  });
});

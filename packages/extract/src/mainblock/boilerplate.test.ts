import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { boilerplateSubtrees } from './boilerplate.js';
import { buildBlockTree, type Block } from '../html/blockTree.js';
import { extractMainBlock } from './mainBlock.js';
import { uniqueParagraph } from '../testing/sitePages.js';

const formOf = (blocks: readonly Block[]): Block => blocks.find((block) => block.tag === 'form') as Block;

/** An old ASP.NET page: one form wraps the menu, the article and the footer. */
const wrappedPage = `<html><body><form id="aspnetForm" method="post" action="default.aspx">
<table><tr><td><a href="/">Home</a> <a href="/about">About</a></td></tr>
<tr><td><h1>Annual report</h1><p>${uniqueParagraph(1, 60)}</p><p>${uniqueParagraph(2, 50)}</p></td></tr>
<tr><td>Copyright Valley Council</td></tr></table></form></body></html>`;

/** An article followed by its comment form. */
const commentedPage = `<html><body><article><h1>Bridge closes</h1><p>${uniqueParagraph(3, 60)}</p><p>${uniqueParagraph(4, 50)}</p></article>
<form id="commentform" action="/comment"><p>Leave a reply. Your email address will not be published.</p><p>Comment <textarea></textarea></p><p>Name <input name="author"></p><p><input type="submit" value="Post comment"></p></form></body></html>`;

describe('forms as boilerplate', () => {
  it('a form wrapping the whole page is not boilerplate: mainblock reads the article inside it', () => {
    const tree = buildBlockTree(wrappedPage);
    assert.equal(boilerplateSubtrees(tree.blocks, null)[formOf(tree.blocks).index], 0);
    const text = extractMainBlock(wrappedPage).text;
    assert.ok(text.includes(uniqueParagraph(1, 60)) && text.includes(uniqueParagraph(2, 50)), text);
  });

  it('a comment form after an article is boilerplate', () => {
    const tree = buildBlockTree(commentedPage);
    assert.equal(boilerplateSubtrees(tree.blocks, null)[formOf(tree.blocks).index], 1);
    const text = extractMainBlock(commentedPage).text;
    assert.ok(text.includes(uniqueParagraph(4, 50)), text);
    assert.ok(!text.includes('Leave a reply'), text);
  });
});

describe('names inside preformatted text', () => {
  it("are a syntax highlighter's: a code comment is not marked, a comment section is", () => {
    const tree = buildBlockTree(
      `<html><body><pre><code><span class="hljs-comment"># start a repository</span>\ngit init</code></pre><div class="comments"><p>First!</p></div></body></html>`,
    );
    const suppressed = boilerplateSubtrees(tree.blocks, null);
    const codeComment = tree.blocks.find((block) => block.hint.includes('hljs-comment')) as Block;
    const commentSection = tree.blocks.find((block) => block.hint.includes('comments')) as Block;
    assert.equal(suppressed[codeComment.index], 0);
    assert.equal(suppressed[commentSection.index], 1);
  });
});

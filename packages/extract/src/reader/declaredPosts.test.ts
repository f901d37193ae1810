import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractReader } from './reader.js';

const firstPost = 'I have a fifty gallon tank and want to keep it simple, so I am thinking of a fish only setup with live rock. '.repeat(4);
const thread = (itemtype: string): string => `<html><body><nav><a href="/">Forums</a></nav><div class="thread" itemscope itemtype="${itemtype}">
  <article class="post first"><div class="post-body"><p class="name">Bagabaga</p><div itemprop="articleBody"><p>${firstPost}</p><p>What fish should I consider?</p></div></div></article>
  <article class="reply"><p class="name">Dbroncos</p><div class="message-userExtras"><dl><dt>Joined</dt><dd>Mar 6, 2016</dd></dl></div><div itemprop="text">A dwarf lion would be fine.</div><div class="message-signature">Dulce et decorum est</div></article>
  <article class="reply"><p class="name">T Diddy</p><div itemprop="text">Look at the wrasses too.</div></article>
</div><footer><p>Terms and rules</p></footer></body></html>`;

describe('withDeclaredPosts', () => {
  it("keeps the short replies of a page that declares a forum thread and marks its posts, with their headers, not the members' counters and signatures", () => {
    const text = extractReader(thread('https://schema.org/DiscussionForumPosting')).text;
    for (const line of ['What fish should I consider?', 'Dbroncos', 'A dwarf lion would be fine.', 'Look at the wrasses too.'])
      assert.ok(text.includes(line), line);
    assert.ok(!text.includes('Terms and rules'));
    for (const furniture of ['Joined', 'Dulce et decorum est']) assert.ok(!text.includes(furniture), furniture);
  });

  it('keeps the replies of a declared thread whose posts are numbered, not marked, with its quotes but not their expanders', () => {
    const post = (id: number, name: string, body: string) =>
      `<article id="elComment_${id}" class="cPost"><div class="cAuthorPane"><h3>${name}</h3></div><div class="cPost_contentWrap"><div class="ipsType_richText">${body}</div></div></article>`;
    const page = (
      itemtype: string,
    ) => `<html><head><script type="application/ld+json">{"@type": "${itemtype}"}</script></head><body><nav><a href="/">Forums</a></nav>
<div class="ipsLayout_mainArea"><h1>Which camera?</h1><form><div id="elPostFeed">
${post(5853831, 'Bagabaga', `<p>${firstPost}</p><p>${firstPost}</p><p>Which one would you buy?</p>`)}
${post(5853840, 'Dbroncos', '<blockquote><div class="bbCodeBlock-content">Which one would you buy?</div><div class="bbCodeBlock-expandLink"><a role="button">Click to expand...</a></div></blockquote><p>The rangefinder, for its lenses.</p>')}
${post(5853902, 'T Diddy', '<p>Rent both for a weekend first.</p>')}
</div></form></div><footer><p>Terms and rules</p></footer></body></html>`;
    const text = extractReader(page('DiscussionForumPosting')).text;
    for (const line of ['Which one would you buy?', 'Dbroncos', 'The rangefinder, for its lenses.', 'Rent both for a weekend first.'])
      assert.ok(text.includes(line), line);
    for (const furniture of ['Click to expand', 'Terms and rules']) assert.ok(!text.includes(furniture), furniture);
    // Undeclared, the replies are comments under a post.
    assert.ok(!extractReader(page('WebPage')).text.includes('Rent both for a weekend first.'));
  });

  it('leaves a page that declares no thread as the reader reads it', () => {
    const text = extractReader(thread('https://schema.org/Article')).text;
    assert.ok(text.includes('What fish should I consider?'));
    assert.ok(!text.includes('A dwarf lion would be fine.'));
  });
});

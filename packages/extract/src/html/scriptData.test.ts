import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractReader } from '../reader/reader.js';
import { buildDom, renderDom } from './dom.js';
import { scriptsEndedAsBrowsersEnd } from './scriptData.js';

const story = 'The council voted on the new budget today after a long debate in the town hall.';
const after = 'Members of the public spoke for and against the plan for several hours before the vote.';

/** Old ad code: a script hidden in a comment writes a script tag and an ad anchor as strings. */
const adScript = `<script type="text/javascript"><!--
document.write('<script src="http://ads.example.com/show.js"></script>');
document.write('<a href="http://ads.example.com/click"><img src="ad.gif">Sponsored offer</a>');
//--></script>`;

describe('scripts ended as browsers end them', () => {
  it("does not let an escaped script's inner </script> end it: no code or ad anchor becomes text", () => {
    const page = `<html><body><div class="story"><p>${story.repeat(3)}</p>${adScript}<p>${after.repeat(3)}</p></div></body></html>`;
    const text = extractReader(page).text;
    assert.ok(text.includes(story) && text.includes(after), text);
    assert.doesNotMatch(text, /document\.write|\/\/-->|'\);|Sponsored offer/);
    assert.deepEqual(renderDom(buildDom(page).root), [story.repeat(3).trim(), after.repeat(3).trim()]);
  });

  it('ends a script at its first </script> outside an escaped section, as the HTML Standard does', () => {
    const plain = `<script>var a = '<script>';</script><p>${story}</p>`;
    assert.equal(scriptsEndedAsBrowsersEnd(plain), plain, 'no comment: nothing to rewrite');
    const closedComment = `<script><!-- var a = 1; --></script><p>${story}</p><!-- x -->`;
    assert.equal(scriptsEndedAsBrowsersEnd(closedComment), closedComment);
    // The comment closes before the inner script tag: that tag's end does end the script (a browser shows the rest).
    const reopened = `<script><!-- a(); --> document.write("<script></script>"); </script><!-- x -->`;
    assert.equal(scriptsEndedAsBrowsersEnd(reopened), reopened);
    assert.equal(
      scriptsEndedAsBrowsersEnd(`<SCRIPT><!-- w('<script src=x></SCRIPT>'); //--></SCRIPT><p>${story}</p>`),
      `<SCRIPT><!-- w('<script src=x><\\/SCRIPT>'); //--></SCRIPT><p>${story}</p>`,
    );
  });

  it('leaves commented-out scripts and scripts without a comment as they are', () => {
    const page = `<!-- <script src="old.js"></script> --><script>var a = "<script>";</script><p>${story}</p><!-- end -->`;
    assert.equal(scriptsEndedAsBrowsersEnd(page), page);
  });
});

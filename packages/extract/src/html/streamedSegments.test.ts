import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractReader } from '../reader/reader.js';
import { placeStreamedSegments as placeWithin } from './streamedSegments.js';

const placeStreamedSegments = (html: string) => placeWithin(html, 5_000);

const story = (topic: string) =>
  `<p>The ${topic} was discussed at length by the town council on Tuesday evening, and members agreed that the budget for the coming year should set aside more money for repairs.</p>`;

describe('placeStreamedSegments', () => {
  it("replaces a boundary's template and fallback with its segment, as React's $RC does", () => {
    const page = `<main><h1>Budget</h1><!--$?--><template id="B:0"></template><div class="skeleton">Loading...</div><!--/$--></main><footer>Footer</footer><div hidden id="S:0">${story('budget')}</div><script>$RC("B:0","S:0")</script>`;
    assert.equal(
      placeStreamedSegments(page),
      `<main><h1>Budget</h1><!--$?-->${story('budget')}<!--/$--></main><footer>Footer</footer><script>$RC("B:0","S:0")</script>`,
    );
  });

  it("places the segments after Google Tag Manager's <noscript> iframe written without an end tag", () => {
    const gtm = '<noscript><iframe src="https://www.googletagmanager.com/ns.html?id=GTM-X" height="0" width="0" /></noscript>';
    const page = `<main><!--$?--><template id="B:0"></template><!--/$--></main>${gtm}<div hidden id="S:0">${story('pier')}</div>`;
    assert.equal(placeStreamedSegments(page), `<main><!--$?-->${story('pier')}<!--/$--></main>${gtm}`);
  });

  it('fills placeholders inside segments, and ends a fallback at its own closing comment, not a nested one', () => {
    const page = `<main><!--$?--><template id="B:0"></template><div><!--$--><p>Nested fallback</p><!--/$--></div><p>Still fallback</p><!--/$--><p>After</p></main>
<div hidden id="S:0"><h1>Title</h1><template id="P:1"></template></div><div hidden id="S:1">${story('harbour')}</div>`;
    assert.equal(placeStreamedSegments(page), `<main><!--$?--><h1>Title</h1>${story('harbour')}<!--/$--><p>After</p></main>\n`);
  });

  it('ends a fallback that opens with a nested boundary at its own closing comment', () => {
    const page = `<main><!--$?--><template id="B:0"></template><!--$--><p>Nested</p><!--/$--><p>Still fallback</p><!--/$--><p>After</p></main><div hidden id="S:0"><p>Done</p></div>`;
    assert.equal(placeStreamedSegments(page), `<main><!--$?--><p>Done</p><!--/$--><p>After</p></main>`);
  });

  it('places each segment once when their slots form a cycle, and leaves a slot inside a replaced fallback unfilled', () => {
    const cycle = `<main><template id="P:1"></template></main><div hidden id="S:1"><p>One</p><template id="P:2"></template></div><div hidden id="S:2"><p>Two</p><template id="P:1"></template></div>`;
    assert.equal(placeStreamedSegments(cycle), `<main><p>One</p><p>Two</p><template id="P:1"></template></main>`);
    const inFallback = `<main><!--$?--><template id="B:0"></template><div><template id="P:1"></template></div><!--/$--></main><div hidden id="S:0"><p>Zero</p></div><div hidden id="S:1"><p>One</p></div>`;
    assert.equal(placeStreamedSegments(inFallback), `<main><!--$?--><p>Zero</p><!--/$--></main><div hidden id="S:1"><p>One</p></div>`);
  });

  it('reads a page that ends inside a comment once, and leaves a page nested too deep as it is', () => {
    assert.equal(placeStreamedSegments(`<main><template id="P:0"></template></main><div hidden id="S:0">two<!-- c`), `<main>two<!-- c</main>`);
    const deep = `${'<div>'.repeat(20)}<template id="P:0"></template><div hidden id="S:0">x</div>`;
    assert.equal(placeWithin(deep, 10), deep);
  });

  it('keeps the fallback of a page saved without its comments, where the fallback ends is unknown', () => {
    const page = `<main><template id="B:0"></template><div>Loading paragraph...</div><p>Kept</p></main><div hidden id="S:0">${story('ferry')}</div>`;
    assert.equal(placeStreamedSegments(page), `<main>${story('ferry')}<div>Loading paragraph...</div><p>Kept</p></main>`);
  });

  it('leaves a segment whose slot sits inside itself where it is, and a page without segments untouched', () => {
    const cycle = `<main><p>Shell</p></main><div hidden id="S:1"><template id="P:1"></template>${story('cycle')}</div>`;
    assert.equal(placeStreamedSegments(cycle), cycle);
    const plain = `<main><template id="B:0"></template><p>id="S:0" is only text here</p></main>`;
    assert.equal(placeStreamedSegments(plain), plain);
  });

  it('keeps the tags that close an unclosed segment', () => {
    const page = `<main><template id="P:0"></template></main><section><div hidden id="S:0">${story('ferry')}</section><p>After</p>`;
    assert.equal(placeStreamedSegments(page), `<main>${story('ferry')}</main><section></section><p>After</p>`);
  });

  it('lets the reader read a streamed article in place of its skeleton, on a page whose shell shows a page of text', () => {
    const page = `<html><body><header><nav><a href="/">Home</a> <a href="/news">Local news and weather</a> <a href="/sport">Sport results and fixtures</a> <a href="/events">What's on in the valley this week</a></nav></header><main><!--$?--><template id="B:0"></template><div>Loading article...</div><!--/$--></main>
<footer><p>Copyright the Valley Courier, all rights reserved, registered in the county.</p><p>The Valley Courier is published by Valley Media, 12 Market Square, and printed every weekday morning except on public holidays.</p></footer>
<div hidden id="S:0"><article><h1>Council agrees budget</h1>${story('bridge repair')}${story('library extension')}${story('road maintenance')}</article></div><script>$RC("B:0","S:0")</script></body></html>`;
    const { text } = extractReader(page);
    assert.match(text, /bridge repair[\s\S]*library extension[\s\S]*road maintenance/);
    assert.doesNotMatch(text, /Loading article|Copyright/);
  });
});

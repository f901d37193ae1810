import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractAuto } from './auto.js';

const prose = (topic: string) =>
  `<p>The ${topic} was discussed at length by the town council on Tuesday evening, and members agreed that the budget for the coming year should set aside more money for repairs, for staff and for the long list of projects that residents had asked for at the spring meetings.</p>`;

/** A news story whose article container also holds a photo, a linked sentence and a "Related" list. */
const story = `<html><head><title>Council budget</title></head><body>
<nav><a href="/">Home</a> <a href="/news">News</a></nav>
<article><h1>Council agrees budget</h1>
${prose('bridge repair')}
<figure><img src="/bridge.jpg"><figcaption>Photo credit: Valley Photo Agency</figcaption></figure>
${prose('library extension')}
<p><a href="/report">The full council report is published on the town website for everyone to read</a></p>
${prose('road maintenance')}
<h3>Related stories</h3>
<ul><li><a href="/a">Mayor opens new park in the north district</a></li><li><a href="/b">School term dates announced for next year</a></li><li><a href="/c">Bus timetable changes from Monday morning</a></li></ul>
</article>
<footer>Copyright the Valley Courier</footer></body></html>`;

/** A guide whose article is mostly links: the links are its content. */
const contents = `<html><body><article><h1>Guide to the town archive</h1>
<p>This guide lists the archive's collections, each on its own page, in the order the archive keeps them on its shelves.</p>
<ul>${['Parish registers from the eighteenth century', 'Maps of the valley and its farms', 'Minutes of the town council meetings', 'Photographs of the old railway station', 'Letters of the founding families of the town'].map((title, n) => `<li><a href="/c/${n}">${title}</a></li>`).join('')}</ul>
</article></body></html>`;

/** A forum thread whose replies sit in a container Readability judges unlikely to be content. */
const sentence =
  'Our allotment club met on Saturday to plan the spring planting, and the long discussion about which beans to sow, where to put the new compost bins and how to share the watering rota went on until late in the afternoon.';
const reply = (n: number) =>
  `<div class="post"><h4>Reply ${n}</h4><p>Member ${n} answered that the runner beans should go along the south fence again this year, that the compost bins belong next to the shed where the barrow can reach them, and that the watering rota worked well last summer.</p></div>`;
const thread = `<html><body><nav><a href="/">Forum</a></nav><div class="thread"><h1>Spring planting</h1>
<div class="first-post">${`<p>${sentence}</p>`.repeat(3)}</div>
<div class="community-replies">${Array.from({ length: 14 }, (_, n) => reply(n + 1)).join('')}</div></div>
<footer>Copyright Allotment Forum</footer></body></html>`;

/** A short news item beside a portal's listing of headlines, times and teasers: more words than the item, none of them prose. */
const entry = (n: number) => `<div class="entry"><span>Today, ${n}:15</span><h4>Harbour news number ${n}</h4><p>Ferry times change again</p></div>`;
const portal = `<html><body><nav><a href="/">Valley News</a></nav>
<div class="story"><h1>Ferry strike ends</h1>${prose('ferry strike')}${prose('harbour dredging')}</div>
<div class="latest"><h3>Latest</h3>${Array.from({ length: 60 }, (_, n) => entry(n + 1)).join('')}</div>
<footer>Copyright Valley News</footer></body></html>`;

describe('auto', () => {
  it('keeps the story and a paragraph that is a link, drops the photo caption and the list of related links', () => {
    const { text } = extractAuto(story);
    for (const kept of ['bridge repair', 'library extension', 'road maintenance', 'The full council report is published'])
      assert.ok(text.includes(kept), `missing "${kept}" in:\n${text}`);
    for (const dropped of ['Photo credit', 'Mayor opens new park', 'Bus timetable changes', 'Copyright the Valley Courier'])
      assert.ok(!text.includes(dropped), `kept "${dropped}" in:\n${text}`);
  });

  it('keeps the links of an article that is mostly links', () => {
    const { text } = extractAuto(contents);
    for (const title of ['Parish registers from the eighteenth century', 'Letters of the founding families of the town'])
      assert.ok(text.includes(title), `missing "${title}" in:\n${text}`);
  });

  it('reads the main block when Readability settles on a fragment of the page', () => {
    const { text, warnings } = extractAuto(thread);
    for (let n = 1; n <= 14; n++) assert.ok(text.includes(`Member ${n} answered`), `missing reply ${n} in:\n${text}`);
    assert.ok(!text.includes('Copyright Allotment Forum'));
    assert.ok(
      warnings.some((warning) => warning.includes('read by mainblock')),
      warnings.join('; '),
    );
  });

  it("keeps Readability's short article when the page's main block is a listing of short lines", () => {
    const { text, warnings } = extractAuto(portal);
    for (const kept of ['ferry strike', 'harbour dredging']) assert.ok(text.includes(kept), `missing "${kept}" in:\n${text}`);
    assert.ok(!text.includes('Harbour news number'), `kept the listing in:\n${text}`);
    assert.ok(!warnings.some((warning) => warning.includes('read by mainblock')), warnings.join('; '));
  });

  it('reads a page Readability refuses as too large by the main block, and says so', () => {
    const result = extractAuto(`<html><body><article><h1>Many lines</h1><p>${'a line of words<br>'.repeat(100_000)}</p></article></body></html>`);
    assert.match(result.warnings.join(' '), /Readability refused the page \(more than 100000 elements[^)]*\): read by mainblock/);
    assert.match(result.text, /^Many lines\na line of words/);
  });
});

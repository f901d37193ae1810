import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readTree } from './reader.js';
import { buildBlockTree } from '../html/blockTree.js';
import { isRelatedLabel } from './relatedLabels.js';

const paragraph = (n: number) =>
  `<p>Paragraph ${n} of the story: the council agreed the budget for the coming year, with money for repairs, staff and new projects across the town.</p>`;
const story = [1, 2, 3, 4, 5].map(paragraph).join('');
const linked = (title: string) => `<p><a href="/news/${title.length}">${title}</a></p>`;
const read = (html: string) => readTree(buildBlockTree(`<html><body>${html}</body></html>`)).text;

describe('related boxes', () => {
  it('knows related labels in several languages, their dressing aside, and not other headings', () => {
    for (const label of [
      'You may also like...',
      'More News from Sci-Tech',
      'More Great WIRED Stories',
      'Related:',
      '» Leia também',
      'Lesen Sie auch',
      'Читайте также',
      '相关文章',
      'Related (5)',
    ])
      assert.equal(isRelatedLabel(label), true, label);
    for (const label of ['Background', 'What happened next', 'Related work in the field of optics', 'More than a game'])
      assert.equal(isRelatedLabel(label), false, label);
  });

  it('drops a label and the linked paragraphs after it, and keeps the story', () => {
    const text = read(
      `<div class="entry">${story}<p>You may also like...</p>${linked('Who will make the Rock Hall in 2020?')}${linked('Fans want the band in the Hall')}</div>`,
    );
    assert.match(text, /Paragraph 5 of the story/);
    assert.doesNotMatch(text, /You may also like|Rock Hall|Fans want/);
  });

  it('drops a box headed by a label whose links sit in indented lists', () => {
    const list = `<ul>\n        <li>\n            <a href="/a">Amazon says it considered face scanning</a>\n        </li>\n        <li>\n            <a href="/b">Toxic algae and bad policy threaten water</a>\n        </li>\n    </ul>`;
    const text = read(
      `<div class="entry">${story}<div class="box"><h3><a href="/sci">More News from Sci-Tech</a></h3><div class="col">${list}</div></div></div>`,
    );
    assert.match(text, /Paragraph 5 of the story/);
    assert.doesNotMatch(text, /More News|face scanning|Toxic algae/);
  });

  it('keeps what follows a label when it is not links: a section of prose, a lone label', () => {
    const prose = '<p>Silk liners are light and compact, cotton ones are strong and cheap, and fleece is warm.</p>';
    const text = read(`<div class="entry">${story}<h3>Further reading</h3>${prose}<p>Related</p></div>`);
    assert.match(text, /Further reading/);
    assert.match(text, /Silk liners/);
  });

  it('drops a container that opens with a label, linked headlines with standfirsts (prose to the cleaning by their commas), whole', () => {
    const cardOf = (n: number) =>
      `<p><a href="/story/${n}">Headline of the other story number ${n}</a> Council, staff, repairs and a standfirst, ${n}, agreed.</p>`;
    const box = `<div class="more"><h3 class="related-title">Você pode gostar...</h3>${[1, 2, 3].map(cardOf).join('')}</div>`;
    const text = read(`<div class="entry">${story}${box}</div>`);
    assert.match(text, /Paragraph 5 of the story/);
    assert.doesNotMatch(text, /Headline of the other story|standfirst/);
    const advice = `<div class="more"><h3>Related articles</h3><p>Silk liners are light and compact, cotton ones are strong and cheap, and fleece is warm. <a href="/a">Read the guide</a></p></div>`;
    assert.match(read(`<div class="entry">${story}${advice}</div>`), /Silk liners are light/);
  });

  it('drops a "Read more: <headline>" line that is its link, not a sentence that mentions one', () => {
    const text = read(
      `<div class="entry">${paragraph(1)}<p>READ MORE: <a href="/x">Plague outbreak confirmed in Beijing</a></p>${paragraph(2)}<p>Read more: the council's report, <a href="/r">published today</a>, explains the budget in detail for residents.</p>${paragraph(3)}</div>`,
    );
    assert.doesNotMatch(text, /Plague outbreak/);
    assert.match(text, /the council's report/);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildBlockTree } from '../html/blockTree.js';
import { fromTitledHeadline, titledHeadline } from './titledHeadline.js';

const line = (text: string, path = 'HTML.BODY.DIV.ARTICLE.P') => ({ path, text });
const title = 'Herons return to the marsh after a dry winter | The Gazette';
const headline = line('Herons return to the marsh after a dry winter', 'HTML.BODY.DIV.ARTICLE.HEADER.H1');
const paragraph = line('The herons came back to the marsh this week, after a long and dry winter.');
const teasers = [
  line('The council voted on Tuesday to close the old harbour bridge to lorries for the whole summer.', 'HTML.BODY.DIV.UL.LI.P'),
  line('A second storm is expected to reach the coast on Friday night, the weather service said.', 'HTML.BODY.DIV.UL.LI.P'),
  line('5 May 2012, 8:17', 'HTML.BODY.DIV.ARTICLE.HEADER'),
];

describe('fromTitledHeadline', () => {
  it('drops what the readings kept above the H1 the title names: other stories, a dateline', () => {
    assert.deepEqual(
      fromTitledHeadline(title, [...teasers, headline, paragraph]).map((block) => block.text),
      [headline.text, paragraph.text],
    );
  });

  it('cuts nothing at an H1 the title does not name, nor with a title naming only the site', () => {
    const logo = line('The Gazette', 'HTML.BODY.DIV.H1');
    const text = [...teasers, logo, paragraph];
    assert.equal(fromTitledHeadline(title, text), text);
    const both = [...teasers, headline, paragraph];
    assert.equal(fromTitledHeadline('The Gazette', both), both);
  });

  it('cuts nothing at a line the title names that is no H1, nor at an H1 deep in the text', () => {
    const subheading = { ...headline, path: 'HTML.BODY.DIV.ARTICLE.H2' };
    const text = [...teasers, subheading, paragraph];
    assert.equal(fromTitledHeadline(title, text), text);
    const deep = [...Array.from({ length: 12 }, () => paragraph), headline, paragraph];
    assert.equal(fromTitledHeadline(title, deep), deep);
  });
});

describe('titledHeadline', () => {
  const page = buildBlockTree(
    '<body><div class="masthead">Gazette</div><div class="title">Dry winter</div>' +
      '<p>The herons came back to the marsh this week, after a long and dry winter.</p></body>',
  );
  const body = [line('The herons came back to the marsh this week, after a long and dry winter.', 'HTML.BODY.P')];
  const shortTitle = 'Gazette : Dry winter';

  it("takes a two-word headline a three-word title names only where the site's repeated lines are known", () => {
    assert.equal(titledHeadline(page, shortTitle, body, () => false)?.text, 'Dry winter');
    assert.equal(titledHeadline(page, shortTitle, body), undefined);
  });

  it("never takes the site's name a three-word title holds too", () => {
    const site = buildBlockTree(
      '<body><div class="title">Backwards</div><div class="masthead">Blue Heron</div>' +
        '<p>The herons came back to the marsh this week, after a long and dry winter.</p></body>',
    );
    const isSiteLine = (candidate: { text: string }) => candidate.text === 'Blue Heron';
    assert.equal(titledHeadline(site, 'Blue Heron: Backwards', body, isSiteLine), undefined);
    assert.equal(titledHeadline(site, 'Blue Heron: Backwards', body, () => false)?.text, 'Blue Heron');
  });

  it('puts the headline first when the story opens by repeating it in a sentence, not when the text has it as a line', () => {
    const story = buildBlockTree(
      '<body><h1>Three new stations for the city metro</h1><div class="photo">Photo: the agency</div>' +
        '<p>Three new stations for the city metro open this year. The city plans to build eight kilometres of lines, the mayor said.</p></body>',
    );
    const opening = line(
      'Three new stations for the city metro open this year. The city plans to build eight kilometres of lines, the mayor said.',
      'HTML.BODY.P',
    );
    const metroTitle = 'Three new stations for the city metro | The Gazette';
    assert.equal(titledHeadline(story, metroTitle, [opening])?.text, 'Three new stations for the city metro');
    const labelled = line('Three new stations for the city metro (video)', 'HTML.BODY.H2');
    assert.equal(titledHeadline(story, metroTitle, [labelled, opening]), undefined);
  });
});

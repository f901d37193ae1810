import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { articleHeadline } from './articleHeadline.js';

const line = (path: string, text: string) => ({ path, text });

describe('articleHeadline', () => {
  it("is the line that repeats the title's words, without the site's name the title adds", () => {
    const blocks = [
      line('HTML.BODY.ARTICLE.DIV', 'March 3, 2024'),
      line('HTML.BODY.ARTICLE.H2', 'Herons return to the marsh'),
      line('HTML.BODY.ARTICLE.P', 'The herons came back to the marsh this week, after a dry winter.'),
    ];
    assert.equal(articleHeadline(blocks, 'Herons return to the marsh | Blue Heron Journal'), 'Herons return to the marsh');
  });

  it('prefers the line sharing most of the title over an H1 naming the section', () => {
    const blocks = [line('HTML.BODY.H1', 'Nature'), line('HTML.BODY.DIV.DIV', 'Herons return to the marsh'), line('HTML.BODY.P', 'Text.')];
    assert.equal(articleHeadline(blocks, 'Nature - Herons return to the marsh - Journal'), 'Herons return to the marsh');
  });

  it('is the first H1 when no line repeats the title (a title naming only the site)', () => {
    const blocks = [line('HTML.BODY.MAIN.H1', 'Tide tables for May'), line('HTML.BODY.MAIN.P', 'High water at six.')];
    assert.equal(articleHeadline(blocks, 'Blue Heron Journal'), 'Tide tables for May');
  });

  it('is the title itself when the text has no headline, and never a paragraph', () => {
    const long = `Herons return to the marsh ${'and more words '.repeat(30)}`;
    assert.equal(articleHeadline([line('HTML.BODY.P', long)], 'Herons return to the marsh'), 'Herons return to the marsh');
    assert.equal(articleHeadline([], 'Latest posts | Journal'), 'Latest posts | Journal');
    assert.equal(articleHeadline([line('HTML.BODY.UL.LI', 'Journal')], 'Latest posts | Journal'), 'Latest posts | Journal');
  });

  it('looks only at the first lines: a matching line far down is a related link', () => {
    const blocks = [...Array.from({ length: 6 }, (_, i) => line('HTML.BODY.P', `Paragraph ${i} of the story.`)), line('HTML.BODY.H2', 'Herons return')];
    assert.equal(articleHeadline(blocks, 'Herons return | Journal'), 'Herons return | Journal');
  });
});

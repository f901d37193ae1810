import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { blockLines } from '../html/blockLines.js';
import { buildBlockTree } from '../html/blockTree.js';
import { preparedExtractor, singlePageMethodByName, templateMethodByName } from '../methods/methods.js';
import { samplePages, sitePage, uniqueParagraph } from '../testing/sitePages.js';
import { explainExtraction } from './explain.js';
import { INSPECTED_PAGE_POLICY, markedPage } from './markup.js';

const pipeline = templateMethodByName('pipeline');
const extract = preparedExtractor(pipeline, samplePages(12));
const explain = (html: string) => explainExtraction(html, extract);

/** A page of the sample site's layout, with a share line inside the article that every page repeats. */
const page = sitePage(`<h1>Headline ${uniqueParagraph(900, 4)}</h1><p>${uniqueParagraph(901)}</p><p>${uniqueParagraph(902)}</p>`);

describe('explainExtraction: every line of a page, kept or dropped, and the rule that decided', () => {
  test('the kept lines are the extraction, and recording changes nothing', () => {
    const explanation = explain(page);
    assert.deepEqual(explanation.result, extract(page), 'the same result with and without a recorder');
    const kept = explanation.lines.filter((line) => line.kept);
    assert.equal(kept.map((line) => line.text).join('\n'), extract(page).text);
    assert.ok(kept.length >= 3, 'the headline and two paragraphs');
  });

  test("every rendered line of the page is in the explanation, in the page's order", () => {
    const explanation = explain(page);
    const rendered = blockLines(buildBlockTree(page).root).lines.map((line) => line.text);
    assert.deepEqual(
      explanation.lines.map((line) => line.text),
      rendered,
    );
    for (const line of explanation.lines) assert.ok(line.reason.length > 0 && line.block >= 0, `a reason and a block for ${line.text}`);
  });

  test("the site's header, navigation and footer are dropped by the template's or the self-check's rules, named", () => {
    const explanation = explain(page);
    const footer = explanation.lines.find((line) => line.text.startsWith('Copyright 2026'));
    assert.equal(footer?.kept, false);
    assert.ok(
      footer && ['repeated-on-site', 'outside-main-region', 'boilerplate-container', 'not-content-path', 'outside-article'].includes(footer.rule),
      footer?.rule,
    );
    const nav = explanation.lines.find((line) => line.text === 'Sport');
    assert.equal(nav?.kept, false);
    assert.notEqual(nav?.rule, 'not-in-reading');
    assert.equal(explanation.readAlone, null);
    assert.equal(explanation.layout?.pageCount, 12);
    assert.ok(
      explanation.lines
        .filter((line) => line.kept)
        .every((line) => ['both-readings', 'headline-template', 'headline-title', 'reader-unjudged'].includes(line.rule)),
    );
  });

  test('a byline under the headline that both readings left out is kept, and says why', () => {
    const withByline = sitePage(
      `<h1>Headline ${uniqueParagraph(910, 4)}</h1><p class="byline">By <a href="/authors/ada">Ada Finch</a></p><p>${uniqueParagraph(911)}</p><p>${uniqueParagraph(912)}</p>`,
    );
    const byline = explain(withByline).lines.find((line) => line.text === 'By Ada Finch');
    assert.deepEqual([byline?.kept, byline?.rule], [true, 'byline-under-headline']);
    assert.match(byline?.reason ?? '', /byline the page shows under the headline/);
  });

  test("the list that the text's last line introduces is kept, and says why", () => {
    const withList = sitePage(
      `<h1>Headline ${uniqueParagraph(920, 4)}</h1><p>${uniqueParagraph(921)}</p><p>${uniqueParagraph(922)}</p><h3>Popular projects:</h3><ul><li><a href="/p/1">A lamp of glass</a></li><li><a href="/p/2">A clock of wood</a></li></ul>`,
    );
    const explanation = explain(withList);
    const item = explanation.lines.find((line) => line.text === 'A clock of wood');
    assert.deepEqual([item?.kept, item?.rule], [true, 'list-after-label']);
    assert.match(item?.reason ?? '', /list that the text's last line introduces/);
  });

  test('a page of another design is read alone, and its lines say so', () => {
    const other = `<html><head><title>Tides</title></head><body><table>${Array.from(
      { length: 12 },
      (_, i) => `<tr><td>Day ${i}</td><td><span>${uniqueParagraph(700 + i, 25)}</span></td></tr>`,
    ).join('')}</table></body></html>`;
    const explanation = explain(other);
    assert.match(explanation.readAlone ?? '', /read alone$/);
    assert.ok(explanation.lines.filter((line) => line.kept).every((line) => line.rule === 'read-alone'));
    assert.equal(
      explanation.lines
        .filter((line) => line.kept)
        .map((line) => line.text)
        .join('\n'),
      extract(other).text,
    );
  });

  test('a single-page method keeps what it reads and drops the rest', () => {
    const reader = singlePageMethodByName('reader').extract;
    const explanation = explainExtraction(page, reader);
    assert.equal(explanation.result.text, reader(page).text);
    assert.ok(explanation.lines.some((line) => !line.kept && line.rule === 'not-in-reading'));
    assert.ok(explanation.lines.filter((line) => line.kept).every((line) => line.rule === 'method'));
  });
});

describe('markedPage: the page as the inspector shows it', () => {
  test("each explained element is marked with its verdict and its lines' reasons, under a policy that fetches nothing", () => {
    const explanation = explain(page);
    const { html, marked } = markedPage(page, explanation.lines);
    assert.ok(html.startsWith(`<meta http-equiv="Content-Security-Policy" content="${INSPECTED_PAGE_POLICY}">`));
    for (const line of explanation.lines) {
      const verdict = marked.get(line.block);
      assert.ok(verdict, `the element of "${line.text}" is marked`);
      assert.ok(verdict === 'mixed' || verdict === (line.kept ? 'kept' : 'dropped'));
      assert.match(html, new RegExp(`data-winnow="${verdict}" data-winnow-block="${line.block}" title="[^"]*${line.rule}`));
    }
    // Marking adds attributes only: the page reads as it did.
    assert.deepEqual(
      blockLines(buildBlockTree(html).root).lines.map((line) => line.text),
      blockLines(buildBlockTree(page).root).lines.map((line) => line.text),
    );
  });

  test('a refresh, which would navigate the frame elsewhere, is taken out', () => {
    const refreshing = page.replace('<head>', '<head><meta http-equiv="refresh" content="0; url=https://example.com/">');
    assert.doesNotMatch(markedPage(refreshing, explain(refreshing).lines).html, /refresh/);
  });
});

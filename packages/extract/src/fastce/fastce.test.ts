import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { atomicUnits, compileContentExtractor, extractWithContentExtractor, prepareContentExtractor } from '../ce/contentExtractor.js';
import { buildBlockTree } from '../html/blockTree.js';
import { compileTemplate, detect } from './detect.js';
import { ExtractionError } from '../result/errors.js';
import { methodByName, METHOD_NAMES, preparedExtractor, templateMethodByName } from '../methods/methods.js';
import { prepareTemplate } from './prepare.js';
import { parseTemplate } from './template.js';
import { FIGURE_2_PARAGRAPH, samplePages, sitePage, uniqueParagraph } from '../testing/sitePages.js';

const PHRASE = 'the US House of Representatives';
const figurePage = sitePage(`<h1>Headline monitor centennial</h1>${FIGURE_2_PARAGRAPH}<p>${uniqueParagraph(999)}</p>`);
/** Sample pages whose paragraphs carry spans too, so SPAN paths are content paths as in the paper. */
const pagesWithSpans = Array.from({ length: 12 }, (_, i) =>
  sitePage(
    `<h1>Headline ${uniqueParagraph(i, 3)}</h1><p>${uniqueParagraph(i * 3)} <span class="yshortcuts">${uniqueParagraph(i * 3 + 1, 3)}</span> ${uniqueParagraph(i * 3 + 2)}</p>`,
  ),
);

describe('ContentExtractor', () => {
  it('partitions the Figure 2 paragraph into four spans and the rest, spans first (paper, Figure 3)', () => {
    const units = atomicUnits(buildBlockTree(FIGURE_2_PARAGRAPH));
    assert.deepEqual(
      units.map((unit) => unit.text),
      [
        'House of Representatives',
        'The Christian Science Monitor',
        'Rep. Lamar Smith',
        'members of Congress',
        'On Sept. 27, the US unanimously passed a resolution recognizing on its centennial. The measure was sponsored by (R) of Texas who once served on the Monitor staff. It was cosponsored by 40 other .',
      ],
    );
  });

  it('removes blocks repeated across the site and breaks the exact phrase, as the paper says', () => {
    const result = extractWithContentExtractor(compileContentExtractor(prepareContentExtractor(pagesWithSpans).template), figurePage);
    assert.ok(!result.text.includes('Copyright'), 'footer removed');
    assert.ok(!result.text.includes('Weather'), 'navigation removed');
    assert.ok(result.text.includes('House of Representatives'));
    assert.ok(!result.text.includes(PHRASE), result.text);
  });
});

describe('FastCE', () => {
  for (const method of ['fastce', 'fastce+']) {
    it(`${method} keeps the Figure 2 sentence whole, so "${PHRASE}" is found`, () => {
      const extract = preparedExtractor(templateMethodByName(method), pagesWithSpans);
      const result = extract(figurePage);
      assert.ok(result.text.includes(PHRASE), result.text);
      assert.ok(result.text.includes('other members of Congress.'));
      assert.ok(!result.text.includes('Copyright') && !result.text.includes('Weather'), result.text);
    });
  }

  it('keeps the sentence even when the template never saw a span (names repeat across a site)', () => {
    const extract = preparedExtractor(templateMethodByName('fastce'), samplePages(12));
    assert.ok(extract(figurePage).text.includes(PHRASE));
  });

  it('extracts blocks in document order, one block per line', () => {
    const { template } = prepareTemplate(samplePages(10));
    const page = sitePage(`<h1>Headline fresh</h1><p>${uniqueParagraph(501)}</p><p>${uniqueParagraph(502)}</p>`);
    const result = detect(compileTemplate(template), page);
    assert.deepEqual(result.text.split('\n'), ['Headline fresh', uniqueParagraph(501), uniqueParagraph(502)]);
    assert.deepEqual(
      result.blocks.map((block) => block.path),
      ['HTML.BODY.DIV.DIV.H1', 'HTML.BODY.DIV.DIV.P', 'HTML.BODY.DIV.DIV.P'],
    );
  });

  it('drops an extracted block similar to a stored non-content block of the same path', () => {
    const pages = Array.from({ length: 10 }, (_, i) =>
      sitePage(`<h1>Headline ${uniqueParagraph(i, 3)}</h1><p>${uniqueParagraph(i + 40)}</p><p>Share this story with your friends today</p>`),
    );
    const { template } = prepareTemplate(pages);
    assert.ok(template.nonContent.some((block) => block.path === 'HTML.BODY.DIV.DIV.P'));
    const page = sitePage(`<h1>Headline new</h1><p>${uniqueParagraph(777)}</p><p>Share this story with all your friends today</p>`);
    const text = detect(compileTemplate(template), page).text;
    assert.ok(text.includes(uniqueParagraph(777)));
    assert.ok(!text.includes('Share this story'), text);
  });

  it('keeps a story two sample pages carry as content: boilerplate repeats on more than one other page', () => {
    const story = uniqueParagraph(900);
    const pages = Array.from({ length: 10 }, (_, i) =>
      sitePage(`<h1>Headline ${uniqueParagraph(i, 3)}</h1><p>${i < 2 ? story : uniqueParagraph(i + 60)}</p><p>Share this story with your friends today</p>`),
    );
    const compiled = compileTemplate(prepareTemplate(pages).template);
    assert.ok(detect(compiled, pages[0] as string).text.includes(story), 'the story both copies carry is kept');
    assert.ok(!detect(compiled, pages[0] as string).text.includes('Share this story'), 'what every page carries is not');
  });

  it('prepares the same template twice from the same pages, and it survives JSON', () => {
    const pages = samplePages(20);
    const first = prepareTemplate(pages, { params: { refine: true } }).template;
    const second = prepareTemplate(pages, { params: { refine: true } }).template;
    assert.deepEqual(first, second);
    const restored = parseTemplate(JSON.parse(JSON.stringify(first)));
    const page = samplePages(1, 500)[0] as string;
    assert.deepEqual(detect(compileTemplate(restored), page), detect(compileTemplate(first), page));
    assert.ok(!JSON.stringify(first).includes('Copyright'), 'templates store vectors, not page text');
  });

  it('refuses a malformed template and too few pages with typed errors', () => {
    const isError = (code: string) => (error: unknown) => error instanceof ExtractionError && error.code === code;
    assert.throws(() => parseTemplate({ schemaVersion: 99 }), isError('invalid-template'));
    const { template } = prepareTemplate(samplePages(3));
    assert.throws(() => parseTemplate({ ...template, nonContent: [{ path: 'HTML', ids: [1, 2], counts: [1] }] }), isError('invalid-template'));
    assert.throws(() => prepareTemplate(['<p>only one</p>', '']), isError('invalid-argument'));
  });

  it('skips unreadable sample pages and says which', () => {
    const { template, warnings } = prepareTemplate(['', ...samplePages(4)]);
    assert.equal(template.pageCount, 4);
    assert.match(warnings.join(' '), /page 0 skipped/);
  });
});

describe('fastce+', () => {
  it('drops per-page link lists and comments after the main region, keeps the article', () => {
    const withExtras = (i: number): string =>
      sitePage(
        `<h1>Headline ${uniqueParagraph(i, 3)}</h1><div class="body"><p>${uniqueParagraph(i * 5)}</p><p>${uniqueParagraph(i * 5 + 1, 80)}</p><p>${uniqueParagraph(i * 5 + 2, 60)}</p></div>`,
        `<div class="more"><ul><li><a href="/a${i}">${uniqueParagraph(i * 5 + 3, 6)}</a></li><li><a href="/b${i}">${uniqueParagraph(i * 5 + 4, 6)}</a></li></ul></div>` +
          `<div class="talk"><p>${uniqueParagraph(i * 7 + 100, 12)}</p></div>`,
      );
    const pages = Array.from({ length: 15 }, (_, i) => withExtras(i));
    const plain = preparedExtractor(templateMethodByName('fastce'), pages)(withExtras(50)).text;
    const refined = preparedExtractor(templateMethodByName('fastce+'), pages)(withExtras(50)).text;
    assert.ok(plain.includes(uniqueParagraph(50 * 5 + 3, 6)), 'the paper rules keep the unique link list');
    assert.ok(!refined.includes(uniqueParagraph(50 * 5 + 3, 6)), refined);
    assert.ok(!refined.includes(uniqueParagraph(50 * 7 + 100, 12)), 'text after the main region dropped');
    assert.ok(refined.includes(uniqueParagraph(50 * 5 + 1, 80)));
  });

  it('keeps a sentence inside the article whose words are mostly a link, drops a run of links there', () => {
    const page = (i: number, middle: string): string =>
      sitePage(
        `<h1>Headline ${uniqueParagraph(i, 3)}</h1><div class="body"><p>${uniqueParagraph(i * 5, 40)}</p>${middle}<p>${uniqueParagraph(i * 5 + 1, 60)}</p></div>`,
      );
    const cited = (i: number) => `<p>So we asked ${uniqueParagraph(i * 5 + 2, 3)} to <a href="/x${i}">${uniqueParagraph(i * 5 + 3, 14)}</a>.</p>`;
    const links = (i: number) => `<p>${[4, 5, 6].map((k) => `<a href="/r${i}${k}">${uniqueParagraph(i * 5 + k, 6)}</a>`).join(' | ')}</p>`;
    const extract = preparedExtractor(
      templateMethodByName('fastce+'),
      Array.from({ length: 12 }, (_, i) => page(i, cited(i))),
    );
    const { text } = extract(page(50, cited(50) + links(50)));
    assert.ok(text.includes(uniqueParagraph(50 * 5 + 3, 14)), text);
    assert.ok(!text.includes(uniqueParagraph(50 * 5 + 4, 6)), text);
  });
});

describe('fastce+ main region', () => {
  it('takes the parent for the region when the block on the region path is one paragraph among siblings', () => {
    // Sample pages wrap the post's paragraphs in a DIV (the region); the page read puts its paragraphs, DIVs too, straight in the post.
    const wrapped = (i: number) =>
      sitePage(
        `<h1>Headline ${uniqueParagraph(i, 3)}</h1><div class="post"><div><div>${uniqueParagraph(i * 4, 60)}</div><div>${uniqueParagraph(i * 4 + 1, 60)}</div></div><div>${uniqueParagraph(i * 4 + 2, 8)}</div></div>`,
      );
    const extract = preparedExtractor(
      templateMethodByName('fastce+'),
      Array.from({ length: 12 }, (_, i) => wrapped(i)),
    );
    const paragraphs = [uniqueParagraph(901, 80), uniqueParagraph(902, 40), uniqueParagraph(903, 40)];
    const result = extract(sitePage(`<h1>Headline</h1><div class="post">${paragraphs.map((p) => `<div>${p}</div>`).join('')}</div>`));
    for (const paragraph of paragraphs) assert.ok(result.text.includes(paragraph), result.text);
    assert.deepEqual(result.warnings, [], 'read by the template');
  });
});

describe('fastce+ on a page its template does not fit', () => {
  it('reads the page on its own and says so', () => {
    const extract = preparedExtractor(templateMethodByName('fastce+'), samplePages(12));
    const alien = `<html><body><table><tr><td><a href="/">Home</a></td><td><div><p>${uniqueParagraph(601, 60)}</p><p>${uniqueParagraph(602, 60)}</p></div></td></tr></table></body></html>`;
    const result = extract(alien);
    assert.ok(result.text.includes(uniqueParagraph(601, 60)) && result.text.includes(uniqueParagraph(602, 60)), result.text);
    assert.match(result.warnings.join(' '), /does not fit the template/);
    assert.deepEqual(extract(samplePages(1, 700)[0] as string).warnings, [], 'pages that fit are read by the template');
  });
});

describe('methodByName', () => {
  it('lists the known methods when a name is unknown', () => {
    assert.throws(
      () => methodByName('magic'),
      (error: unknown) => error instanceof ExtractionError && /pipeline, fastce, fastce\+, fastce\+auto, ce/.test(error.message),
    );
    assert.deepEqual(METHOD_NAMES.slice(0, 5), ['pipeline', 'fastce', 'fastce+', 'fastce+auto', 'ce']);
  });
});

describe('the method registry', () => {
  it('every template method prepares a template that survives JSON and its own validation, and compiles it', () => {
    const pages = samplePages(12);
    const page = samplePages(1, 800)[0] as string;
    for (const name of METHOD_NAMES) {
      const method = methodByName(name);
      if (method.kind !== 'template') continue;
      const { template } = method.prepare(pages);
      const stored = method.parseTemplate(JSON.parse(JSON.stringify(template)));
      assert.deepEqual(stored, template, name);
      assert.ok(method.compile(stored)(page).text.includes(uniqueParagraph(8001)), `${name} reads a page with its stored template`);
      assert.throws(() => method.parseTemplate({ kind: 'something else' }), ExtractionError, name);
    }
  });
});

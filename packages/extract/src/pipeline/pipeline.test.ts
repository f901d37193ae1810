import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { demoSite } from '@winnow/demo-corpus';
import { ExtractionError } from '../result/errors.js';
import { FASTCE_PLUS_PARAMS } from '../fastce/template.js';
import { preparedExtractor, templateContentPaths, templateMethodByName } from '../methods/methods.js';
import { extractReader } from '../reader/reader.js';
import { BILINGUAL_STORIES, bilingualSitePage, samplePages, sitePage, uniqueParagraph } from '../testing/sitePages.js';
import { groupByLayout, SAME_LAYOUT } from './layouts.js';
import { structureOf } from '../html/structure.js';
import { parsePipelineTemplate, preparePipeline, readAlone } from './pipeline.js';

const pipeline = templateMethodByName('pipeline');

/** Gold lines of a demo article that are its body (the title and byline aside). */
function bodyLines(gold: string): string[] {
  return gold.split('\n').slice(2);
}

function assertKeeps(text: string, lines: readonly string[], where: string): void {
  let at = -1;
  for (const line of lines) {
    const found = text.indexOf(line);
    assert.ok(found > at, `${where}: missing or out of order: ${line}\n--- got:\n${text}`);
    at = found;
  }
}

/** `count` paragraphs of 35 words, numbered from `seed + 1`. */
function paragraphs(seed: number, count: number): string {
  return Array.from({ length: count }, (_, i) => `<p>${uniqueParagraph(seed + i + 1, 35)}</p>`).join('');
}

/** A pipeline template of one layout, of five sample pages, whose `fastce+` template keeps `contentPaths`. */
function oneLayoutTemplate(signature: string[], contentPaths: string[]): ReturnType<typeof parsePipelineTemplate> {
  return parsePipelineTemplate({
    kind: 'pipeline',
    schemaVersion: 1,
    layouts: [
      { signature, pageCount: 5, template: { schemaVersion: 1, params: FASTCE_PLUS_PARAMS, pageCount: 5, contentPaths, regionPath: null, nonContent: [] } },
    ],
  });
}

describe('pipeline', () => {
  it('gives a redesigned site one template per layout, and pages of both keep their text', () => {
    const articles = demoSite('relaunch', { articles: 40 }).pages.filter((page) => page.kind === 'article');
    const heldOut = new Set([0, 1, 38, 39]);
    const training = articles.filter((_, i) => !heldOut.has(i)).map((page) => page.html);
    const { template } = preparePipeline(training);
    assert.equal(template.layouts.length, 2, 'the old and the new design');
    const extract = preparedExtractor(pipeline, training);
    for (const i of heldOut) {
      const page = articles[i];
      assert.ok(page);
      const result = extract(page.html);
      assert.ok(!readAlone(result), `${page.path}: ${result.warnings.join('; ')}`);
      assertKeeps(result.text, bodyLines(page.gold), page.path);
    }
  });

  it('gives a design two sample pages show a template of its own, and reads pages of a design none show alone', () => {
    const articles = demoSite('relaunch', { articles: 40 }).pages.filter((page) => page.kind === 'article');
    const older = articles.slice(0, 3);
    const training = [...articles.slice(26, 38), ...older.slice(1)].map((page) => page.html);
    const { template } = preparePipeline(training);
    assert.deepEqual(
      template.layouts.map((layout) => layout.pageCount),
      [12, 2],
    );
    const extract = preparedExtractor(pipeline, training);
    const [oldPage] = older;
    assert.ok(oldPage);
    const result = extract(oldPage.html);
    assert.ok(!readAlone(result), result.warnings.join('; '));
    assertKeeps(result.text, bodyLines(oldPage.gold), oldPage.path);
    const newerOnly = preparedExtractor(pipeline, training.slice(0, 12))(oldPage.html);
    assert.ok(readAlone(newerOnly));
    assert.match(newerOnly.warnings.join('\n'), /none of the template's layouts \(the nearest shares \d+% of its block paths\)/);
  });

  it('keeps the bodies of formulaic articles that share their vocabulary', () => {
    const articles = demoSite('forecast', { articles: 30 }).pages.filter((page) => page.kind === 'article');
    for (const name of ['pipeline', 'fastce+']) {
      const extract = preparedExtractor(
        templateMethodByName(name),
        articles.slice(5).map((page) => page.html),
      );
      for (const page of articles.slice(0, 5)) assertKeeps(extract(page.html).text, bodyLines(page.gold), `${name} ${page.path}`);
    }
  });

  it('removes what the site repeats inside its articles, and what changes from page to page', () => {
    const share = 'Share this story with your friends on the village noticeboard and at the harbour market';
    const pages = samplePages(12).map((page) => page.replace('</div>\n<div class="footer">', `<p>${share}</p></div>\n<div class="footer">`));
    const extract = preparedExtractor(pipeline, pages);
    const article = [uniqueParagraph(901), uniqueParagraph(902), uniqueParagraph(903)];
    const result = extract(sitePage(`<h1>Headline</h1>${article.map((p) => `<p>${p}</p>`).join('')}`, `<p>${share}</p>`));
    assertKeeps(result.text, article, 'article');
    assert.ok(!result.text.includes(share), 'the repeated share line is gone');
    assert.ok(!/The Daily Example|Copyright/.test(result.text), result.text);
    assert.deepEqual(result.warnings, []);
  });

  it("keeps the reader's lines at paths the sample pages do not have, after the article as within it", () => {
    const extract = preparedExtractor(pipeline, samplePages(12));
    const article = [uniqueParagraph(801), uniqueParagraph(802), uniqueParagraph(803)];
    const update = uniqueParagraph(804, 40);
    const result = extract(sitePage(`<h1>Headline</h1>${article.map((p) => `<p>${p}</p>`).join('')}<div class="update"><p>${update}</p></div>`));
    assert.ok(!readAlone(result), result.warnings.join('; '));
    assertKeeps(result.text, [...article, update], 'article with a closing update');
  });

  for (const [markup, open, close] of [
    ['an H1', '<h1>', '</h1>'],
    ['a SPAN in an H1', '<h1><span>', '</span></h1>'],
  ] as const) {
    it(`puts the headline the reader sets aside first, its text in ${markup}`, () => {
      const page = (n: number) =>
        sitePage(
          `<div class="titles">${open}Headline ${uniqueParagraph(n * 10, 6)}${close}<p class="date">12 May</p></div><div class="story">${[1, 2, 3, 4].map((i) => `<p>${uniqueParagraph(n * 10 + i, 40)}</p>`).join('')}</div>`,
        );
      const extract = preparedExtractor(
        pipeline,
        Array.from({ length: 12 }, (_, n) => page(n)),
      );
      const heldOut = page(99);
      assert.ok(!extractReader(heldOut).text.includes('Headline'), 'the reader leaves the headline out');
      const result = extract(heldOut);
      assert.ok(!readAlone(result), result.warnings.join('; '));
      assertKeeps(result.text, [`Headline ${uniqueParagraph(990, 6)}`, uniqueParagraph(991, 40), uniqueParagraph(994, 40)], 'headline and story');
    });
  }

  it("keeps an article's continuation after a break, in a sibling block of the same kind, which the sample pages lack", () => {
    // A blog's "continue reading" split: the post's first part in `entry-body`, the rest after an
    // anchor in `entry-more`, at the same depth. The template's main region ends with the first part.
    const page = (n: number, more: boolean) =>
      sitePage(
        `<h1>Headline ${uniqueParagraph(n * 10, 5)}</h1><div class="entry-body">${paragraphs(n * 10, 3)}</div>${more ? `<a id="more"></a><div class="entry-more">${paragraphs(n * 10 + 5, 2)}</div>` : ''}`,
      );
    const extract = preparedExtractor(
      pipeline,
      Array.from({ length: 12 }, (_, n) => page(n, n === 3)),
    );
    const heldOut = page(99, true);
    const continuation = [uniqueParagraph(996, 35), uniqueParagraph(997, 35)];
    const templateOnly = preparedExtractor(
      templateMethodByName('fastce+'),
      Array.from({ length: 12 }, (_, n) => page(n, n === 3)),
    )(heldOut);
    assert.ok(!templateOnly.text.includes(continuation[0] as string), "the template's reading ends with the first part");
    const result = extract(heldOut);
    assert.ok(!readAlone(result), result.warnings.join('; '));
    assertKeeps(result.text, [uniqueParagraph(991, 35), uniqueParagraph(993, 35), ...continuation], 'both parts');
  });

  it("keeps an article's continuation written right inside a sibling block, without paragraphs", () => {
    // TypePad's "continue reading" part holds its text without a <p>: a path one level above the
    // article's paragraphs, which the template knows from the text its sample pages' bodies hold bare.
    const page = (n: number, more: boolean) =>
      sitePage(
        `<h1>Headline ${uniqueParagraph(n * 10, 5)}</h1><div class="entry"><div class="entry-body">${uniqueParagraph(n * 10 + 8, 30)}${paragraphs(n * 10, 3)}</div>${more ? `<a id="more"></a><div class="entry-more">${uniqueParagraph(n * 10 + 5, 40)}</div>` : ''}</div>`,
      );
    const samples = Array.from({ length: 12 }, (_, n) => page(n, n === 3));
    const heldOut = page(99, true);
    const continuation = uniqueParagraph(995, 40);
    const result = preparedExtractor(pipeline, samples)(heldOut);
    assert.ok(!readAlone(result), result.warnings.join('; '));
    assertKeeps(result.text, [uniqueParagraph(991, 35), uniqueParagraph(993, 35), continuation], 'both parts');
  });

  it('puts a headline and the standfirst under it first, when the reader sets both aside', () => {
    const page = (n: number) =>
      sitePage(
        `<header class="titles"><h1>Headline ${uniqueParagraph(n * 10, 6)}</h1><h2>Standfirst ${uniqueParagraph(n * 10 + 5, 7)}</h2></header><div class="story">${[1, 2, 3, 4].map((i) => `<p>${uniqueParagraph(n * 10 + i, 40)}</p>`).join('')}</div>`,
      );
    const extract = preparedExtractor(
      pipeline,
      Array.from({ length: 12 }, (_, n) => page(n)),
    );
    const heldOut = page(99);
    const headline = `Headline ${uniqueParagraph(990, 6)}`;
    const standfirst = `Standfirst ${uniqueParagraph(995, 7)}`;
    assert.ok(!/Headline|Standfirst/.test(extractReader(heldOut).text), 'the reader leaves both out');
    const result = extract(heldOut);
    assert.ok(!readAlone(result), result.warnings.join('; '));
    assert.deepEqual(
      result.blocks.slice(0, 2).map((block) => block.text),
      [headline, standfirst],
    );
    assertKeeps(result.text, [uniqueParagraph(991, 40), uniqueParagraph(994, 40)], 'story after them');
  });

  it("puts the headline and its standfirst first when the article's first paragraph repeats most of the headline's words", () => {
    const page = (n: number) =>
      sitePage(
        `<div class="titles"><h1>Headline ${uniqueParagraph(n * 10, 6)}</h1><h2>Standfirst ${uniqueParagraph(n * 10 + 5, 7)}</h2></div><div class="story"><p>${uniqueParagraph(n * 10, 6)} ${uniqueParagraph(n * 10 + 6, 30)}</p>${[1, 2, 3].map((i) => `<p>${uniqueParagraph(n * 10 + i, 40)}</p>`).join('')}</div>`,
      );
    const extract = preparedExtractor(
      pipeline,
      Array.from({ length: 12 }, (_, n) => page(n)),
    );
    const result = extract(page(99));
    assert.ok(!readAlone(result), result.warnings.join('; '));
    assert.deepEqual(
      result.blocks.slice(0, 3).map((block) => block.text),
      [`Headline ${uniqueParagraph(990, 6)}`, `Standfirst ${uniqueParagraph(995, 7)}`, `${uniqueParagraph(990, 6)} ${uniqueParagraph(996, 30)}`],
    );
  });

  it("puts the standfirst and the byline the reader leaves out before the article's first line, and passes over a dateline", () => {
    // A sentence different on every page, of words without digits (a line of numbers is a dateline).
    const standfirstOf = (n: number) => uniqueParagraph(n * 10 + 5, 12).replace(/\d/g, (digit) => 'abcdefghij'.charAt(Number(digit)));
    const page = (n: number) =>
      sitePage(
        `<div class="titles"><h1>Headline ${uniqueParagraph(n * 10, 6)}</h1><p class="standfirst">${standfirstOf(n)}</p><p class="byline">By Reporter ${n}</p><p class="date">${n + 1} May 2012 10:${10 + n} GMT</p></div><div class="story">${[1, 2, 3, 4].map((i) => `<p>${uniqueParagraph(n * 10 + i, 40)}</p>`).join('')}</div>`,
      );
    const extract = preparedExtractor(
      pipeline,
      Array.from({ length: 12 }, (_, n) => page(n)),
    );
    const heldOut = page(99);
    const standfirst = standfirstOf(99);
    assert.ok(!extractReader(heldOut).text.includes(standfirst), 'the reader leaves the standfirst out');
    const result = extract(heldOut);
    assert.ok(!readAlone(result), result.warnings.join('; '));
    assert.deepEqual(
      result.blocks.slice(0, 4).map((block) => block.text),
      [`Headline ${uniqueParagraph(990, 6)}`, standfirst, 'By Reporter 99', uniqueParagraph(991, 40)],
    );
    assert.ok(!/May 2012/.test(result.text), `the dateline left as the reader left it:\n${result.text}`);
  });

  it("takes no standfirst from above the headline the page's title names: a sign-up bar there is the site's", () => {
    const sentence = (seed: number) => uniqueParagraph(seed, 12).replace(/\d/g, (digit) => 'abcdefghij'.charAt(Number(digit)));
    const headlineOf = (n: number) =>
      `Headline ${sentence(n * 10)
        .split(' ')
        .slice(0, 6)
        .join(' ')}`;
    // The bar's sentence changes from page to page, so the site does not repeat it; the reader sets it aside by name.
    const page = (n: number) =>
      sitePage(
        `<div class="post-title"><a href="/post/${n}">${headlineOf(n)}</a></div><p class="byline">by Reporter ${n} on ${n + 1} May 2012 at 10:${10 + n}</p><div class="story">${[1, 2, 3, 4].map((i) => `<p>${uniqueParagraph(n * 10 + i, 40)}</p>`).join('')}</div>`,
      )
        .replace('<title>Site</title>', `<title>${headlineOf(n)} | The Daily Example</title>`)
        .replace('<div class="main">', `<div class="signup_box"><a href="/join">Sign Up</a><span>${sentence(n * 10 + 5)}</span></div><div class="main">`);
    const extract = preparedExtractor(
      pipeline,
      Array.from({ length: 12 }, (_, n) => page(n)),
    );
    const result = extract(page(99));
    assert.ok(!readAlone(result), result.warnings.join('; '));
    assert.ok(!result.text.includes(sentence(995)), `the bar above the headline stays out:\n${result.text}`);
    assert.deepEqual(
      result.blocks.slice(0, 3).map((block) => block.text),
      [headlineOf(99), 'by Reporter 99 on 100 May 2012 at 10:109', uniqueParagraph(991, 40)],
    );
  });

  it("puts first the headline the page's title names, whatever its markup, and only once", () => {
    const headline = 'Harbour festival opens the new railway bridge';
    const story = [1, 2, 3, 4].map((i) => uniqueParagraph(500 + i, 40));
    const page = (title: string, heading: string) =>
      sitePage(story.map((p) => `<p>${p}</p>`).join(''))
        .replace('<title>Site</title>', `<title>${title}</title>`)
        .replace(
          '<div class="main">',
          `<div class="post-title"><a href="/story">${heading}</a></div><p class="byline">By the river desk</p><div class="main">`,
        );
    const { template } = preparePipeline([]);
    const read = pipeline.compile(template);
    const titled = read(page(`${headline} | The Daily Example`, headline));
    assert.equal(titled.blocks[0]?.text, headline);
    assertKeeps(titled.text, story, 'story after the headline');
    assert.equal(titled.text.split(headline).length, 2, 'the headline once');
    assert.ok(!extractReader(page(`${headline} | The Daily Example`, headline)).text.includes(headline), 'the reader leaves the headline out');
    const untitled = read(page('The Daily Example', headline));
    assert.equal(untitled.blocks[0]?.text, story[0], 'a title naming only the site names no headline');
  });

  it("puts the standfirst and the byline of the titled headline's own header under it, and passes over its dateline", () => {
    const headline = 'Harbour festival opens the new railway bridge';
    const standfirst = 'The mayor cut the ribbon before a crowd of farmers, teachers and school children';
    const story = [1, 2, 3, 4].map((i) => uniqueParagraph(600 + i, 40));
    const html = sitePage(story.map((p) => `<p>${p}</p>`).join(''))
      .replace('<title>Site</title>', `<title>${headline} | The Daily Example</title>`)
      .replace(
        '<div class="main">',
        `<header class="story-head"><h1>${headline}</h1><p class="dek">${standfirst}</p><p class="byline">By the river desk</p><p class="date">12 May 2012 10:15</p></header><div class="main">`,
      );
    const read = pipeline.compile(preparePipeline([]).template);
    const result = read(html);
    assert.deepEqual(
      result.blocks.slice(0, 4).map((block) => block.text),
      [headline, standfirst, 'By the river desk', story[0]],
    );
    assert.ok(!extractReader(html).text.includes(standfirst), 'the reader leaves the standfirst out');
  });

  it("finds a Chinese headline, written without spaces, in the page's title", () => {
    const headline = '雲林衛生局加強春節應景食品抽驗';
    const story = [1, 2, 3, 4].map((i) => uniqueParagraph(600 + i, 40));
    const html = sitePage(story.map((p) => `<p>${p}</p>`).join(''))
      .replace('<title>Site</title>', `<title>${headline} - 地方 - 聯合新聞網</title>`)
      .replace('<div class="main">', `<div class="post-title"><h3>${headline}</h3></div><div class="main">`);
    const result = pipeline.compile(preparePipeline([]).template)(html);
    assert.equal(result.blocks[0]?.text, headline);
    assertKeeps(result.text, story, 'story after the headline');
  });

  it("keeps a recent post's headline and first paragraph that the site's 'latest posts' box repeats on every page", () => {
    const headlineOf = (n: number) => `Headline ${uniqueParagraph(n * 10, 6)}`;
    const latest = `<aside class="latest"><h3>Latest</h3><ul>${[0, 1, 2, 3]
      .map((n) => `<li><a href="/${n}">${headlineOf(n)}</a><p>${uniqueParagraph(n * 10 + 1, 40)}</p></li>`)
      .join('')}</ul></aside>`;
    const page = (n: number) =>
      `<html><head><title>${headlineOf(n)} | Site</title></head><body><div class="post"><h1>${headlineOf(n)}</h1>${[1, 2, 3].map((i) => `<p>${uniqueParagraph(n * 10 + i, 40)}</p>`).join('')}</div>${latest}</body></html>`;
    const training = [0, 1, 3, 4, 5, 6, 7, 8, 9, 10, 11].map(page);
    const result = preparedExtractor(pipeline, training)(page(2));
    assertKeeps(result.text, [headlineOf(2), ...[1, 2, 3].map((i) => uniqueParagraph(20 + i, 40))], 'the recent post');
  });

  it("does not take the site's name for the headline when the title abbreviates the headline", () => {
    const page = (n: number) =>
      `<html><head><title>Story ${n} | The Harbour Gazette</title></head><body><header><h1 class="logo">The Harbour Gazette</h1><ul><li><a href="/">Home</a></li><li><a href="/news">News</a></li></ul></header><div class="story"><h2>Story ${n}: ${uniqueParagraph(n * 10, 6)}</h2>${[1, 2, 3].map((i) => `<p>${uniqueParagraph(n * 10 + i, 40)}</p>`).join('')}</div></body></html>`;
    const result = preparedExtractor(
      pipeline,
      Array.from({ length: 12 }, (_, n) => page(n)),
    )(page(30));
    assert.ok(!result.text.includes('The Harbour Gazette'), result.text);
    assertKeeps(
      result.text,
      [1, 2, 3].map((i) => uniqueParagraph(300 + i, 40)),
      'the story',
    );
  });

  it('reads a page alone when the template holds only a teaser of it, instead of leaving it empty', () => {
    const lead = uniqueParagraph(601, 8);
    const body = [`${lead} ${uniqueParagraph(602, 50)}`, uniqueParagraph(603, 50)];
    const template = oneLayoutTemplate(['HTML.BODY.DIV.P', 'HTML.BODY.ARTICLE.P'], ['HTML.BODY.DIV.P']);
    const page = `<html><body><div><p>${lead}</p></div><article>${body.map((p) => `<p>${p}</p>`).join('')}</article></body></html>`;
    const result = pipeline.compile(template)(page);
    assert.ok(readAlone(result), result.warnings.join('; '));
    assertKeeps(result.text, body, 'the article');
  });

  it('reads a listing that no layout of the template fits as its list of teasers, as the reader does', () => {
    const template = oneLayoutTemplate(['HTML.BODY.ARTICLE.P', 'HTML.BODY.ARTICLE.H1'], ['HTML.BODY.ARTICLE.P']);
    // Its only paragraph is a cookie notice: without the listing rule, the page was indexed as that.
    // (No <main>: one would be read whole.)
    const teaser = (n: number) =>
      `<div class="card"><a href="/story/${n}"><h3>Harbour story number ${n} makes the evening news</h3><span>The ferry, the market and the mill on day ${n}.</span></a></div>`;
    const front = `<html><body><div class="consent"><p>We use cookies to give you the best online experience.</p></div><div class="content"><div class="grid">${Array.from({ length: 12 }, (_, i) => teaser(i + 1)).join('')}</div></div></body></html>`;
    const result = pipeline.compile(template)(front);
    assert.ok(readAlone(result), result.warnings.join('; '));
    assert.ok(result.warnings.includes('no article: the page read as its listing'), result.warnings.join('; '));
    assertKeeps(result.text, ['Harbour story number 1 makes the evening news', 'The ferry, the market and the mill on day 12.'], 'the listing');
  });

  it("keeps an article's prose at a path where the sample pages had only the site's own short lines", () => {
    const shareList = '<ul><li>Share by email</li><li>Print this story</li></ul>';
    const article = (n: number, list: string) =>
      sitePage(`<h1>Headline ${uniqueParagraph(n * 10, 4)}</h1><p>${uniqueParagraph(n * 10 + 1)}</p>${list}<p>${uniqueParagraph(n * 10 + 2)}</p>`);
    const training = Array.from({ length: 12 }, (_, n) => article(n, shareList));
    const points = [uniqueParagraph(621, 24), uniqueParagraph(622, 30)];
    const heldOut = article(20, `<ul>${points.map((point) => `<li>${point}</li>`).join('')}</ul>`);
    const result = preparedExtractor(pipeline, training)(heldOut);
    assert.ok(!readAlone(result), result.warnings.join('; '));
    assertKeeps(result.text, [uniqueParagraph(201), ...points, uniqueParagraph(202)], 'the article and its list');
    const shortPoints = preparedExtractor(pipeline, training)(article(21, '<ul><li>Email the author</li><li>Read more stories</li></ul>'));
    assert.ok(!shortPoints.text.includes('Email the author'), shortPoints.text);
  });

  it("keeps a short sentence between two of the article's paragraphs that a sample page also has, but not a link's title there", () => {
    const quoted = 'Starting today, the ferry also runs on Sundays.';
    const related = 'Pictures: the harbour through the years';
    const article = (n: number, middle: string) =>
      sitePage(`<h1>Headline ${uniqueParagraph(n * 10, 4)}</h1><p>${uniqueParagraph(n * 10 + 1)}</p>${middle}<p>${uniqueParagraph(n * 10 + 2)}</p>`);
    const training = Array.from({ length: 20 }, (_, n) => article(n, n < 3 ? `<p>${quoted}</p><p><a href="/pictures">${related}</a></p>` : ''));
    const extract = preparedExtractor(pipeline, training);
    const decisions: string[] = [];
    const result = extract(article(20, `<p>${quoted}</p>`), { record: (d) => d.kind === 'unjudged' && decisions.push(d.line.text) });
    assert.ok(!readAlone(result), result.warnings.join('; '));
    assertKeeps(result.text, [uniqueParagraph(201), quoted, uniqueParagraph(202)], 'the article and its short sentence');
    assert.deepEqual(decisions, [quoted], 'kept by the rule, not by the template');
    const linked = extract(article(21, `<p><a href="/pictures">${related}</a></p>`));
    assert.ok(!linked.text.includes(related), linked.text);
  });

  it("keeps a run of short sentences, a list and bare text of the article's own between two of its paragraphs, but not a box's tabs", () => {
    const sentences = ['Photos of the harbour at dawn.', 'And a map of the ferry routes.'];
    // Written straight into the article's container, between its paragraphs.
    const bare = 'Tickets are on sale at the quay now!';
    const items = ['Raw fish keeps six months', 'Cooked meat keeps three months'];
    const tabs = ['Video', 'Gallery'];
    const list = (lines: readonly string[]) => `<ul>${lines.map((line) => `<li>${line}</li>`).join('')}</ul>`;
    // Every page's share list puts list items in the layout, where the template reads only the site's short lines.
    const share = '<ul><li><a href="/share">Share this story</a></li><li><a href="/print">Print</a></li></ul>';
    const article = (n: number, middle: string) =>
      sitePage(
        `<h1>Headline ${uniqueParagraph(n * 10, 4)}</h1><p>${uniqueParagraph(n * 10 + 1)}</p>${middle}<p>${uniqueParagraph(n * 10 + 2)}</p><p>${uniqueParagraph(n * 10 + 3)}</p>${share}`,
      );
    const runOf = sentences.map((line) => `<p>${line}</p>`).join('');
    const training = Array.from({ length: 20 }, (_, n) => article(n, n < 3 ? `${runOf}${list(items)}${list(tabs)}${bare}` : ''));
    const extract = preparedExtractor(pipeline, training);
    const decisions: string[] = [];
    const result = extract(article(20, `${runOf}<p>${uniqueParagraph(203)}</p>${list(items)}<p>${uniqueParagraph(204)}</p>${bare}`), {
      record: (d) => d.kind === 'unjudged' && decisions.push(d.line.text),
    });
    assert.ok(!readAlone(result), result.warnings.join('; '));
    assertKeeps(
      result.text,
      [uniqueParagraph(201), ...sentences, uniqueParagraph(203), ...items, uniqueParagraph(204), bare, uniqueParagraph(202)],
      'the article, its sentences, its list and its bare text',
    );
    assert.deepEqual(decisions, [...sentences, ...items, bare], 'kept by the rule, not by the template');
    const tabbed = extract(article(21, `<p>${uniqueParagraph(213)}</p>${list(tabs)}`));
    for (const tab of tabs) assert.ok(!tabbed.text.split('\n').includes(tab), tabbed.text);
  });

  it("reads a page alone when the template keeps less than a sentence of it, all inside the reader's reading", () => {
    // The sample pages repeat their paragraphs (a site whose stories all said the same): the template learns only the headline.
    const story = (n: number, paragraphs: readonly string[]) => sitePage(`<h1>Story ${n}</h1>${paragraphs.map((p) => `<p>${p}</p>`).join('')}`);
    const repeated = [uniqueParagraph(631, 40), uniqueParagraph(632, 40)];
    const extract = preparedExtractor(
      pipeline,
      Array.from({ length: 12 }, (_, n) => story(n, repeated)),
    );
    const unique = [uniqueParagraph(633, 40), uniqueParagraph(634, 40), uniqueParagraph(635, 40)];
    const result = extract(story(20, unique));
    assert.ok(readAlone(result), result.warnings.join('; '));
    assertKeeps(result.text, unique, 'the story');
  });

  it("lets only a template of the page's own layout overrule most of the reader's reading", () => {
    const lead = uniqueParagraph(611, 20);
    // Lines shorter than a sentence of prose (`PROSE_WORDS`), which the template judges when the page is of its layout.
    const article = Array.from({ length: 8 }, (_, i) => uniqueParagraph(612 + i, 15));
    const page = `<html><body><div class="story"><section><p>${lead}</p></section><div>${article.map((p) => `<p>${p}</p>`).join('')}</div></div></body></html>`;
    const pagePaths = [...structureOf(page)];
    // The template reads only the lead: on its own layout's pages the rest is what the reader takes along.
    const templateSharing = (otherPaths: number) =>
      oneLayoutTemplate([...pagePaths, ...Array.from({ length: otherPaths }, (_, i) => `HTML.BODY.ASIDE${i}.P`)], ['HTML.BODY.DIV.SECTION.P']);
    const near = pipeline.compile(templateSharing(pagePaths.length + 1))(page);
    assert.ok(readAlone(near), near.warnings.join('; '));
    assert.match(near.warnings.join('; '), /only near the template's layout/);
    assertKeeps(near.text, [lead, ...article], 'a page near the layout');
    const own = pipeline.compile(templateSharing(0))(page);
    assert.ok(!readAlone(own), own.warnings.join('; '));
    assert.ok(!own.text.includes(article[0] as string), own.text);
  });

  it("does not take text the site's pages repeat for the article of a page with little text", () => {
    const notice = `${uniqueParagraph(900, 70)}.`;
    const page = (n: number) =>
      `<html><body><div class="top"><a href="/">Home</a></div><div class="content"><div class="story"><h1>Headline ${uniqueParagraph(n * 10, 4)}</h1><p>${uniqueParagraph(n * 10 + 1, 14)}</p></div></div><div class="legal"><div class="box"><p>${notice}</p></div></div></body></html>`;
    const training = Array.from({ length: 12 }, (_, n) => page(n));
    const heldOut = page(20);
    assert.ok(extractReader(heldOut).text.includes(notice), 'the reader alone takes the notice');
    const result = preparedExtractor(pipeline, training)(heldOut);
    assert.ok(!result.text.includes(notice), result.text);
    assertKeeps(result.text, [uniqueParagraph(201, 14)], 'the article');
    assert.match(result.warnings.join('; '), /text the site's pages repeat/);
  });

  it("does not take the site's text for the article of a page of a rare layout, whose few sample pages cannot show it repeats", () => {
    const notice = `${uniqueParagraph(910, 70)}.`;
    const legal = `<div class="legal"><div class="box"><p>${notice}</p></div></div>`;
    const story = (n: number) =>
      `<html><body><div class="top"><a href="/">Home</a></div><div class="content"><div class="story"><h1>Headline ${uniqueParagraph(n * 10, 4)}</h1><p>${uniqueParagraph(n * 10 + 1, 40)}</p><p>${uniqueParagraph(n * 10 + 2, 40)}</p></div></div>${legal}</body></html>`;
    const video = (n: number) =>
      `<html><body><header><nav><ul><li><a href="/">Home</a></li></ul></nav></header><section><figure><video src="/v${n}.mp4"></video><figcaption>${uniqueParagraph(n * 10 + 3, 8)}</figcaption></figure></section>${legal}</body></html>`;
    const training = [...Array.from({ length: 12 }, (_, n) => story(n)), video(30), video(31)];
    assert.equal(preparePipeline(training).template.layouts.length, 2, 'stories and videos');
    const heldOut = video(32);
    assert.ok(extractReader(heldOut).text.includes(notice), 'the reader alone takes the notice');
    const result = preparedExtractor(pipeline, training)(heldOut);
    assert.ok(!result.text.includes(notice), result.text);
  });

  it('indexes the short Chinese stories of a small bilingual site as themselves, not as its English footer', () => {
    const pages = BILINGUAL_STORIES.map(bilingualSitePage);
    const templated = preparedExtractor(pipeline, pages);
    // Below the site's minTemplatePages there is no template yet, and every page is read alone.
    const untemplated = pipeline.compile(preparePipeline([]).template);
    for (const [i, story] of BILINGUAL_STORIES.entries()) {
      for (const [how, extract] of [
        ['with a template', templated],
        ['without one', untemplated],
      ] as const) {
        const { text } = extract(pages[i] as string);
        assertKeeps(text, story.paragraphs, `${story.headline} ${how}`);
        assert.ok(!text.includes('All rights reserved'), `${story.headline} ${how}:\n${text}`);
      }
    }
  });

  it('reads a page of another layout alone, and says so', () => {
    const extract = preparedExtractor(pipeline, samplePages(12));
    const foreign = `<html><body><main><article>${[1, 2, 3].map((i) => `<p>${uniqueParagraph(700 + i, 40)}</p>`).join('')}</article></main></body></html>`;
    const result = extract(foreign);
    assert.ok(readAlone(result), result.warnings.join('; '));
    assertKeeps(
      result.text,
      [1, 2, 3].map((i) => uniqueParagraph(700 + i, 40)),
      'foreign page',
    );
  });

  it('skips a binary page in preparation with a warning, and prepares from the others', () => {
    const binary = '\u0000\u0001PK\u0003\u0004'.repeat(200);
    const { template, warnings } = preparePipeline([...samplePages(6), binary]);
    assert.equal(template.layouts.length, 1);
    assert.equal(warnings.filter((warning) => warning.startsWith('page 6 skipped')).length, 1, warnings.join('\n'));
  });

  it('reads every page alone, without error, when too few pages are readable for a template', () => {
    const { template, warnings } = preparePipeline(samplePages(1));
    assert.deepEqual(template.layouts, []);
    assert.match(warnings.join('\n'), /too few for a template/);
    const result = pipeline.compile(template)(samplePages(2)[1] as string);
    assert.ok(result.text.length > 0 && readAlone(result));
  });

  it('refuses a stored template that is not a pipeline template', () => {
    assert.throws(
      () => parsePipelineTemplate({ kind: 'pipeline', schemaVersion: 1, layouts: [{ signature: [], pageCount: 1, template: {} }] }),
      ExtractionError,
    );
    assert.throws(() => parsePipelineTemplate({ contentPaths: [] }), /not a pipeline template/);
  });

  it('outlines a template per layout, and lists its content paths over its layouts, for the diff between versions', () => {
    const { template } = preparePipeline(samplePages(8));
    const paths = templateContentPaths(pipeline, template);
    assert.ok(paths.length > 0);
    assert.deepEqual(paths, [...new Set(paths)].sort());
    const layouts = pipeline.outline(template);
    assert.equal(layouts.length, template.layouts.length);
    assert.deepEqual(
      layouts.map((layout) => [layout.pages, layout.signaturePaths, layout.contentPaths, layout.boilerplateBlocks, layout.repeatedLines]),
      template.layouts.map((layout) => [
        layout.pageCount,
        layout.signature.length,
        [...layout.template.contentPaths].sort(),
        layout.template.nonContent.length,
        layout.repeatedLines.length,
      ]),
    );
    assert.deepEqual(paths, [...new Set(layouts.flatMap((layout) => layout.contentPaths))].sort());
  });
});

describe('groupByLayout', () => {
  const layout = (prefix: string, optional: number) =>
    new Set([...['A', 'B', 'C', 'D', 'E', 'F'].map((tag) => `${prefix}.${tag}`), ...(optional % 2 ? [`${prefix}.TABLE`] : [])]);

  it('puts pages of one design together and keeps two designs apart, largest group first', () => {
    const structures = [layout('OLD', 0), layout('NEW', 1), layout('NEW', 2), layout('OLD', 3), layout('NEW', 4)];
    assert.deepEqual(groupByLayout(structures), [
      [1, 2, 4],
      [0, 3],
    ]);
  });

  it('joins groups only at or above SAME_LAYOUT on average', () => {
    const a = new Set(['X', 'Y']);
    const b = new Set(['X', 'Z']); // Jaccard 1/3
    assert.ok(1 / 3 < SAME_LAYOUT);
    assert.deepEqual(groupByLayout([a, b]), [[0], [1]]);
    assert.deepEqual(groupByLayout([a, new Set(['X', 'Y', 'Z'])]), [[0, 1]]);
  });
});

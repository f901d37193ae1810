import assert from 'node:assert/strict';
import { test } from 'node:test';
import { demoSite } from '@winnow/demo-corpus';
import { clusterFor, clusterPages, urlPattern } from './clusters.js';
import { documentTitle } from '../html/title.js';

test('URL patterns abstract numbers and long slugs, keep the rest', () => {
  assert.equal(urlPattern('http://a.test/articles/17.html'), '/articles/:n.html');
  assert.equal(urlPattern('http://a.test/'), '/');
  assert.equal(urlPattern('http://a.test/2024/05/how-the-river-flooded-the-town?x=1'), '/:n/:n/:slug');
  assert.equal(urlPattern('http://a.test/society/2011/dec/05/x'), urlPattern('http://a.test/society/2012/Jan/17/x'));
  assert.equal(urlPattern('http://a.test/2011/sept/05/x'), '/:n/:month/:n/x');
  assert.equal(urlPattern('http://a.test/mayday/x'), '/mayday/x');
});

test('a demo site clusters into its article pages and its list pages', () => {
  const site = demoSite('gazette', { articles: 60 });
  const pages = site.pages.map((page) => ({ url: `http://127.0.0.1:1${page.path}`, html: page.html }));
  const clusters = clusterPages(pages, { minPages: 3 });
  assert.equal(clusters.length, 2, JSON.stringify(clusters.map((cluster) => cluster.urlPatterns)));
  const [articles, lists] = clusters as [(typeof clusters)[0], (typeof clusters)[0]];
  assert.deepEqual(articles.urlPatterns, ['/articles/:n.html']);
  assert.deepEqual([...lists.urlPatterns].sort(), ['/', '/page/:n.html']);
  for (const index of lists.members) assert.equal(site.pages[index]?.kind, 'list');
  // A list page under a URL no cluster lists is matched by its structure.
  const list = site.pages.find((page) => page.kind === 'list');
  assert.equal(clusterFor({ url: 'http://127.0.0.1:1/archive/index.html', html: list?.html ?? '' }, clusters), lists);
  assert.equal(clusterFor({ url: 'http://127.0.0.1:1/x.html', html: '<p>nothing alike</p>' }, clusters), undefined);
});

test('pages that are not readable HTML are in no cluster; the rest of the site clusters as without them', () => {
  const site = demoSite('gazette', { articles: 30 });
  const good = site.pages.map((page) => ({ url: `http://127.0.0.1:1${page.path}`, html: page.html }));
  const bad = [
    { url: 'http://127.0.0.1:1/articles/9001.html', html: ' \n\t ' },
    { url: 'http://127.0.0.1:1/articles/9002.html', html: '\u0000\u0001PNG\u0000'.repeat(500) },
  ];
  const clusters = clusterPages([...good, ...bad], { minPages: 3 });
  const members = clusters.flatMap((cluster) => cluster.members);
  assert.ok(!members.includes(good.length) && !members.includes(good.length + 1), 'the unreadable pages are members of no cluster');
  assert.deepEqual(clusters, clusterPages(good, { minPages: 3 }));
});

test('a page with a stray few C0 control characters in its text is a page like the others', () => {
  const site = demoSite('gazette', { articles: 12 });
  const pages = site.pages.map((page) => ({ url: `http://127.0.0.1:1${page.path}`, html: page.html }));
  const article = pages.findIndex((page) => page.url.includes('/articles/'));
  const html = (pages[article] as { html: string }).html;
  pages[article] = { url: (pages[article] as { url: string }).url, html: html.replace('<p>', '<p>\u0001\u0002\u0003 ') };
  const clusters = clusterPages(pages, { minPages: 3 });
  assert.ok(clusters.some((cluster) => cluster.members.includes(article)));
});

test('documentTitle reads the title element, entities decoded', () => {
  assert.equal(documentTitle('<html><head><title> Fish &amp;\n chips </title></head><body><title>no</title></body></html>'), 'Fish & chips');
  assert.equal(documentTitle('<p>none</p>'), '');
});

test('a site with enough pages but no page type of enough pages is one page type', () => {
  const site = demoSite('gazette', { articles: 12 });
  const articles = site.pages.filter((page) => page.kind === 'article').slice(0, 8);
  const list = site.pages.find((page) => page.kind === 'list');
  // Eight articles, and two pages whose URLs and structures match nothing else.
  const pages = [
    ...articles.map((page) => ({ url: `http://127.0.0.1:1${page.path}`, html: page.html })),
    { url: 'http://127.0.0.1:1/video/clip.html', html: '<div><h1>A clip</h1><video></video><p>Watch it.</p></div>' },
    { url: 'http://127.0.0.1:1/', html: list?.html ?? '' },
  ];
  const clusters = clusterPages(pages, { minPages: 10 });
  assert.equal(clusters.length, 1);
  assert.deepEqual(
    clusters[0]?.members,
    pages.map((_, i) => i),
  );
  assert.equal(clusters[0]?.key, '/articles/:n.html');
  // One page fewer, and the site is too small for a template: its page types stay apart.
  assert.ok(clusterPages(pages.slice(1), { minPages: 10 }).length > 1);
});

test('a page type too rare on its site for a template of its own is read with the largest', () => {
  const site = demoSite('gazette', { articles: 12 });
  const pages = site.pages.filter((page) => page.kind === 'article').map((page) => ({ url: `http://127.0.0.1:1${page.path}`, html: page.html }));
  const odd = { url: 'http://127.0.0.1:1/video/clip.html', html: '<div><h1>A clip</h1><video></video><p>Watch it.</p></div>' };
  const [articles, ...rest] = clusterPages([...pages, odd], { minPages: 10 });
  assert.equal(rest.length, 0);
  assert.ok(articles?.members.includes(pages.length) && articles.urlPatterns.includes('/video/clip.html'));
});

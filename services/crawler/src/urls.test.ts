import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { allowedGlobs, parseSiteConfig } from '@winnow/config';
import { describe, test } from 'node:test';
import { refusedLink } from './admission.js';
import { headerCanonical, readLinks } from './links.js';
import { retryAfterMs } from './politeness.js';
import { readSitemap } from './sitemaps.js';
import { isAllowedUrl, normalizeUrl, trapReason } from './urls.js';

describe('URL normalisation', () => {
  test('one spelling per page: scheme and host case, default port, fragment, tracking parameters', () => {
    assert.equal(normalizeUrl('HTTP://News.Example:80/a/../b?utm_source=x&id=3&fbclid=y#top'), 'http://news.example/b?id=3');
    assert.equal(normalizeUrl('https://news.example:443/?utm_campaign=z'), 'https://news.example/');
    assert.equal(normalizeUrl('/c?ref_src=tw', 'https://news.example/a/'), 'https://news.example/c');
    assert.equal(normalizeUrl('https://news.example/?session=1', undefined, ['session']), 'https://news.example/');
    assert.equal(normalizeUrl('mailto:someone@news.example'), null);
    assert.equal(normalizeUrl('javascript:void(0)'), null);
    assert.equal(normalizeUrl('http://[::1'), null);
  });

  test('an empty query is no query: `/a?`, `/a?#top` and `/a` are one URL', () => {
    assert.equal(normalizeUrl('https://news.example/article/3.html?'), 'https://news.example/article/3.html');
    assert.equal(normalizeUrl('?#top', 'https://news.example/article/3.html'), 'https://news.example/article/3.html');
    assert.equal(normalizeUrl('https://news.example/a?utm_source=x'), 'https://news.example/a');
    assert.equal(normalizeUrl('https://news.example/a?q='), 'https://news.example/a?q=', 'a parameter with an empty value stays');
  });

  test('trap guards: very long URLs and paths that repeat a segment', () => {
    assert.equal(trapReason('https://news.example/2026/11/story.html'), null);
    assert.match(trapReason(`https://news.example/${'a'.repeat(3000)}`) ?? '', /longer than 2048/);
    assert.match(trapReason('https://news.example/a/b/a/b/a/b/') ?? '', /repeats the segment "a" 3 times/);
    assert.match(trapReason('https://news.example/2012/page/2012/page/2012/page/') ?? '', /repeats the segment "page" 3 times/);
    assert.equal(trapReason('https://news.example/12/12/12/story.html'), null);
    assert.equal(trapReason('https://tv.example/2012/09/2012/09/09/story'), null);
  });

  test('allowed globs match case-insensitively', () => {
    assert.ok(isAllowedUrl('http://news.example/World/x', ['http://news.example/world/**']));
    assert.ok(!isAllowedUrl('http://other.example/world/x', ['http://news.example/**']));
  });

  test("a site's default globs cover its own links: an IPv6 origin, dot-paths, hosts with glob characters", () => {
    const globsOf = (seed: string) => allowedGlobs(parseSiteConfig({ name: 'site', seeds: [seed], allowPrivateAddresses: true }));
    const v6 = globsOf('http://[::1]:19001/');
    assert.ok(isAllowedUrl('http://[::1]:19001/page', v6), String(v6));
    assert.ok(!isAllowedUrl('http://[::2]:19001/page', v6));
    assert.ok(!isAllowedUrl('http://:19001/page', v6));
    const news = globsOf('https://news.example/');
    assert.ok(isAllowedUrl('https://news.example/.well-known/security.txt', news));
    assert.ok(isAllowedUrl('https://news.example/a/.hidden/b', news));
    assert.ok(!isAllowedUrl('https://other.example/.well-known/security.txt', news));
    const braces = globsOf('http://a{b,c}.example/');
    assert.ok(isAllowedUrl(`${new URL('http://a{b,c}.example/').origin}/x`, braces), String(braces));
    assert.ok(!isAllowedUrl('http://ab.example/x', braces));
  });

  test("a site's links are held to the trap guards before its globs: a hostile link's length is refused first", () => {
    const config = parseSiteConfig({ name: 'site', seeds: ['http://example.com/'], allow: ['http://example.com/*-*-*.html'] });
    const long = refusedLink(`http://example.com/${'-'.repeat(3000)}.html`, config);
    assert.equal(long?.reason, 'trap');
    assert.match(long?.why ?? '', /longer than 2048/);
    assert.deepEqual(refusedLink(`http://example.com/${'-'.repeat(2000)}`, config), { reason: 'outside-allowed', why: "outside the site's allowed URLs" });
    assert.equal(refusedLink(`http://example.com/${'-'.repeat(2000)}.html`, config), null);
  });

  test('Retry-After in seconds or as an HTTP date', () => {
    assert.equal(retryAfterMs('2'), 2000);
    assert.equal(retryAfterMs(new Date(10_000).toUTCString(), 4_000), 6000);
    assert.equal(retryAfterMs('soon'), null);
    assert.equal(retryAfterMs(undefined), null);
  });
});

describe('reading a page for the crawler', () => {
  test('links resolved against <base>, canonical, meta robots; nothing from scripts', () => {
    const html = `<html><head><base href="/section/"><link rel="canonical" href="https://news.example/story?utm_source=a">
      <meta name="robots" content="noindex, nofollow"><script>var s = '<a href="/in-script">x</a>';</script></head>
      <body><a href="one.html">One</a><a href="/two.html?x=1&amp;y=2">Two</a><area href="three.html"><a href="mailto:x@y">mail</a><a href="one.html">again</a></body></html>`;
    const page = readLinks(html, 'https://news.example/story');
    assert.deepEqual(page.links, ['https://news.example/section/one.html', 'https://news.example/two.html?x=1&y=2', 'https://news.example/section/three.html']);
    assert.equal(page.canonical, 'https://news.example/story?utm_source=a');
    assert.equal(page.nofollow, true);
    assert.equal(page.noindex, true);
  });

  test("a Link header's canonical, resolved against the response; none when unreadable or absent", () => {
    const url = 'https://news.example/files/report.html';
    assert.equal(headerCanonical('</reports/2026>; rel="canonical", <https://cdn.example/r.css>; rel=preload', url), 'https://news.example/reports/2026');
    assert.equal(headerCanonical('<https://cdn.example/a>; rel="alternate"', url), null);
    assert.equal(headerCanonical('not a link header', url), null);
    assert.equal(headerCanonical(undefined, url), null);
    assert.equal(headerCanonical(`</a>;${' '.repeat(5000)}rel="canonical"`, url), null, 'a header longer than a URL and its parameters is not parsed');
  });

  test('a 100,000-deep page is read in one linear pass, its links found', () => {
    const deep = `${'<div>'.repeat(100_000)}<a href="/deep-link">deep</a>${'</div>'.repeat(100_000)}`;
    assert.deepEqual(readLinks(deep, 'https://news.example/').links, ['https://news.example/deep-link']);
  });

  test('sitemaps: a url set, a gzipped index, locations resolved', () => {
    const urlset = Buffer.from(
      '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://news.example/a</loc></url><url><loc> /b </loc></url></urlset>',
    );
    assert.deepEqual(readSitemap(urlset, 'https://news.example/sitemap.xml', 1 << 20), {
      pages: ['https://news.example/a', 'https://news.example/b'],
      sitemaps: [],
    });
    const index = gzipSync('<sitemapindex><sitemap><loc>https://news.example/s1.xml</loc></sitemap></sitemapindex>');
    assert.deepEqual(readSitemap(index, 'https://news.example/sitemap.xml.gz', 1 << 20), { pages: [], sitemaps: ['https://news.example/s1.xml'] });
    assert.throws(
      () => readSitemap(gzipSync(Buffer.alloc(1 << 20)), 'https://news.example/big.xml.gz', 1024),
      /^Error: gzipped sitemap of \d+ bytes decompresses to more than 1024 bytes: refused$/,
    );
  });
});

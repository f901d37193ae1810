import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { globProblem, UrlGlob } from './globs.js';
import { parseSiteConfig } from './site.js';

const site = (allow: string[]) => parseSiteConfig({ name: 'news', seeds: ['https://news.example/'], allow });

describe('allowed URL globs', () => {
  test('a brace bomb is refused by validation, naming the glob, without being expanded', () => {
    assert.throws(
      () => site(['https://news.example/{1..200000}']),
      /allow\.0: glob "https:\/\/news\.example\/\{1\.\.200000\}" refused: its braces expand to more than 32 patterns/,
    );
    assert.throws(() => site([`https://news.example/${'{a,b}'.repeat(16)}`]), /braces expand to more than 32 patterns/);
    assert.equal(globProblem('https://news.example/{world,sport}/{2025,2026}/**'), null);
  });

  test('too many wildcards in one path segment, or a negated extglob, are refused', () => {
    assert.throws(() => site([`https://news.example/${'*a'.repeat(20)}b`]), /path segment "(\*a){20}b" has 20 "\*" wildcards, more than 4/);
    assert.equal(globProblem('https://news.example/*-*-*-*.html'), null);
    assert.equal(globProblem('https://news.example/\\*\\*\\*\\*\\*.html'), null, 'escaped stars are no wildcards');
    assert.match(globProblem('https://news.example/!(private)/**') ?? '', /cannot be matched in linear time/);
    assert.equal(globProblem('https://news.example/@(world|sport)/**'), null);
  });

  test('a glob written as a path or a bare host, which no URL can match, is refused with an example', () => {
    assert.throws(
      () => site(['/articles/**']),
      /allow\.0: glob "\/articles\/\*\*" refused: globs match whole URLs, scheme and host included \(e\.g\. "https:\/\/example\.com\/articles\/\*\*"\)/,
    );
    assert.throws(
      () => site(['https://news.example/**', 'news.example/world/**']),
      /allow\.1: glob "news\.example\/world\/\*\*" refused: globs match whole URLs/,
    );
    for (const glob of ['https://news.example/**', 'http*://news.example/**', 'http{,s}://news.example/**', '*://news.example/*']) {
      assert.deepEqual(site([glob]).allow, [glob]);
    }
  });

  test("a glob on another host than the seeds', or on another scheme than http(s), is refused", () => {
    assert.throws(() => site(['file:///**']), /allow\.0: glob "file:\/\/\/\*\*" refused: only http and https URLs are crawled, not "file:" ones/);
    for (const glob of [
      'https://other.example/**',
      'http://**',
      'https://*/**',
      'https://*.example/**',
      '**/amp/**',
      'https://{news.example,127.0.0.1:5432}/**',
      'https://news.example.evil/**',
    ]) {
      assert.throws(() => site([glob]), /refused: (its host ".*" is not a seed's host \(news\.example\) nor its subdomains|globs match whole URLs)/, glob);
    }
    for (const glob of ['https://*.news.example/**', 'https://{www.,}news.example/**', 'https://NEWS.example/**']) {
      assert.deepEqual(site([glob]).allow, [glob]);
    }
    const local = parseSiteConfig({
      name: 'local',
      seeds: ['http://127.0.0.1:8080/', 'http://[::1]:8080/'],
      allow: ['http://127.0.0.1:8080/a/**', 'http://\\[::1\\]:8080/**'],
      allowPrivateAddresses: true,
    });
    assert.equal(local.allow.length, 2);
    assert.throws(
      () => parseSiteConfig({ name: 'local', seeds: ['http://127.0.0.1:8080/'], allow: ['http://127.0.0.1:9/**'], allowPrivateAddresses: true }),
      /its host "127\.0\.0\.1:9"/,
    );
  });

  test('a hostile link gets its answer: matching is linear in the URL', () => {
    // With minimatch's backtracking RegExp this segment costs its length to the fourth power: it never ends.
    const glob = new UrlGlob(`http://example.com/${'*a'.repeat(4)}b`);
    const hostile = `http://example.com/${'a'.repeat(2020)}`;
    assert.equal(glob.matches(hostile), false);
    assert.equal(glob.matches(`${hostile}b`), true);
    const dashes = new UrlGlob('http://example.com/*-*-*.html');
    assert.equal(dashes.matches(`http://example.com/${'-'.repeat(2020)}`), false);
    assert.equal(dashes.matches(`http://example.com/${'-'.repeat(2020)}.html`), true);
  });

  test("minimatch's meaning is kept: case, dot segments, classes, extglobs, braces, `**`", () => {
    const matches = (glob: string, url: string) => new UrlGlob(glob).matches(url);
    assert.ok(matches('http://news.example/world/**', 'http://NEWS.example/World/x'));
    assert.ok(matches('https://news.example/**', 'https://news.example/.well-known/security.txt'));
    assert.ok(matches('https://news.example/*/*.html', 'https://news.example/.hidden/a.html'));
    assert.ok(!matches('https://news.example/*/x', 'https://news.example/../x'), 'a wildcard never matches `.` or `..`');
    assert.ok(matches('https://news.example/[0-9][0-9][0-9][0-9]/*', 'https://news.example/2026/story'));
    assert.ok(!matches('https://news.example/[0-9][0-9][0-9][0-9]/*', 'https://news.example/20x6/story'));
    assert.ok(matches('https://news.example/[[:alpha:]]*', 'https://news.example/Été'));
    assert.ok(matches('https://news.example/+(ab).html', 'https://news.example/abab.html'));
    assert.ok(matches('https://news.example/{world,sport}/*', 'https://news.example/sport/a'));
    assert.ok(!matches('https://news.example/{world,sport}/*', 'https://news.example/arts/a'));
    assert.ok(matches('https://news.example/**/amp/*', 'https://news.example/a/b/amp/c'));
    assert.ok(!matches('https://news.example/**/amp/*', 'https://news.example/a/b/c'));
    assert.ok(matches('https://news.example/a?c', 'https://news.example/abc'));
    assert.ok(!matches('https://news.example/a?c', 'https://news.example/a/c'));
  });
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { reasonClass } from './fetchOutcomes.js';

test('a visit reason is counted by its class, never by its text (which names URLs and lines)', () => {
  const cases: [string, string | null, string][] = [
    ['stored', null, 'none'],
    ['refused', 'HTTP 404', 'http-404'],
    ['gone', 'HTTP 410: the page is gone', 'http-410'],
    ['failed', 'HTTP 502', 'http-5xx'],
    ['refused', 'HTTP 418', 'http-4xx'],
    ['moved', 'HTTP 301: moved to http://a.example/b', 'redirect'],
    ['refused', "redirect to http://elsewhere.example/ refused: outside the site's allowed URLs", 'redirect-refused'],
    ['disallowed', 'robots.txt line 2: Disallow: /private/', 'robots-disallowed'],
    ['failed', 'fetch failed: connection refused (fetching robots.txt)', 'robots-unavailable'],
    ['refused', 'not HTML: application/pdf', 'not-html'],
    ['refused', 'empty body', 'empty-body'],
    ['refused', 'the page asks not to be indexed (robots noindex)', 'noindex'],
    ['refused', 'body larger than the limit of 5242880 bytes', 'too-large'],
    ['failed', 'fetch failed: no complete response within 30 s', 'timeout'],
    ['failed', 'fetch failed: connection refused', 'unreachable'],
    ['refused', 'refused: 10.0.0.1 is a private address', 'address-refused'],
    ['refused', 'sitemap answered HTTP 500', 'sitemap'],
    ['gone', "outside the site's allowed URLs: removed from the index", 'outside-allowed'],
    ['refused', 'something new', 'other'],
  ];
  for (const [outcome, reason, expected] of cases) assert.equal(reasonClass(outcome, reason), expected, `${outcome}: ${reason}`);
});

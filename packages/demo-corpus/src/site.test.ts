import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEMO_SITE_NAMES, demoSite } from './site.js';

describe('demo corpus', () => {
  it('is deterministic', () => {
    assert.deepEqual(demoSite('gazette', { articles: 30 }), demoSite('gazette', { articles: 30 }));
  });

  for (const name of DEMO_SITE_NAMES) {
    it(`${name}: hundreds of pages of two kinds, linked so that a crawl from / reaches every page`, () => {
      const site = demoSite(name);
      assert.ok(site.pages.length >= 200);
      assert.deepEqual(new Set(site.pages.map((page) => page.kind)), new Set(['article', 'list']));
      const byPath = new Map(site.pages.map((page) => [page.path, page]));
      const seen = new Set(['/']);
      const queue = ['/'];
      while (queue.length > 0) {
        const html = byPath.get(queue.shift()!)?.html ?? '';
        for (const [, href] of html.matchAll(/href="([^"]+)"/g)) {
          if (byPath.has(href!) && !seen.has(href!)) {
            seen.add(href!);
            queue.push(href!);
          }
        }
      }
      assert.equal(seen.size, site.pages.length);
    });

    it(`${name}: every gold line is text of its page`, () => {
      for (const page of demoSite(name, { articles: 20 }).pages) {
        const text = page.html
          .replace(/<[^>]+>/g, '')
          .replace(/&quot;/g, '"')
          .replace(/&amp;/g, '&');
        for (const line of page.gold.split('\n')) assert.ok(text.includes(line), `${page.path}: ${line}`);
      }
    });
  }

  it('refuses unknown sites', () => {
    assert.throws(() => demoSite('nowhere'), /known: gazette, ledger, almanac, relaunch, forecast/);
  });
});

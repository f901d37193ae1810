import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseSiteConfig, readStoredSiteConfig, SiteConfigError } from './site.js';

const site = { name: 'news', seeds: ['https://news.example/'] };

test('a schedule is off (0) or at least a second: shorter ones are refused, naming the setting', () => {
  for (const schedule of ['templateEveryMs', 'recrawlEveryMs']) {
    assert.throws(() => parseSiteConfig({ ...site, [schedule]: 100 }), new RegExp(`${schedule}: must be 0 \\(off\\) or at least 1000 ms`));
    assert.equal(parseSiteConfig({ ...site, [schedule]: 0 })[schedule as 'recrawlEveryMs'], 0);
    assert.equal(parseSiteConfig({ ...site, [schedule]: 1000 })[schedule as 'recrawlEveryMs'], 1000);
  }
});

test('stored settings an earlier version accepted are read with the problem named; a row that is no site throws', () => {
  const stored = readStoredSiteConfig({ ...site, templateEveryMs: 100, allow: ['/articles/**'], retired: true });
  assert.equal(stored.config.templateEveryMs, 100);
  assert.deepEqual(stored.config.allow, ['/articles/**']);
  assert.ok(!('retired' in stored.config), 'a setting this version does not have is dropped');
  assert.match(stored.problem ?? '', /allow\.0: glob "\/articles\/\*\*" refused: .*; templateEveryMs: must be 0 \(off\) or at least 1000 ms/);
  assert.deepEqual(readStoredSiteConfig(site), { config: parseSiteConfig(site), problem: null });
  assert.throws(() => readStoredSiteConfig({ name: 'news', maxPages: 'many' }), SiteConfigError);
});

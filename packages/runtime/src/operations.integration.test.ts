import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadEnv, SiteConfigError } from '@winnow/config';
import { MAX_RESULT_WINDOW, type ElasticsearchIndex, type IndexDocument } from '@winnow/search';
import { elasticsearchForTests, type LocalElasticsearch, testDocument } from '@winnow/search/testing';
import { listSites } from '@winnow/storage';
import { createScratchDatabase, type ScratchDatabase } from '@winnow/storage/testing';
import {
  addSite,
  crawlStatus,
  InvalidRequestError,
  recrawlScheduleId,
  removeSite,
  replaceSite,
  requireSite,
  search,
  SiteNotFoundError,
  startCrawl,
  stopCrawl,
  syncSchedules,
  templateScheduleId,
  updateSite,
} from './operations.js';
import { openRuntime, type Runtime } from './runtime.js';
import { requestTemplates } from './templates.js';

const siteInput = (name: string) => ({ name, seeds: ['http://127.0.0.1:9/'], templateEveryMs: 0, allowPrivateAddresses: true });

const doc = (site: string, i: number, mainText = `The harbour master number ${i}.`): IndexDocument =>
  testDocument({ site, url: `http://127.0.0.1:9/${i}.html`, pageId: i, mainText });

/** Names that cannot be a site's, and that must never reach a query. */
const IMPOSSIBLE_NAMES = ['a\u0000b', '\u0000', 'News', ' news', 'news ', '-news', 'a/b', '', 'x'.repeat(64), 'news\n'];

/** Every operation that takes a site name. */
const BY_NAME: Record<string, (rt: Runtime, name: string) => Promise<unknown>> = {
  requireSite: (rt, name) => requireSite(rt, name),
  replaceSite: (rt, name) => replaceSite(rt, name, { seeds: ['http://127.0.0.1:9/'], allowPrivateAddresses: true }),
  updateSite: (rt, name) => updateSite(rt, name, { maxPages: 5 }),
  removeSite: (rt, name) => removeSite(rt, name),
  startCrawl: (rt, name) => startCrawl(rt, name),
  stopCrawl: (rt, name) => stopCrawl(rt, name),
  crawlStatus: (rt, name) => crawlStatus(rt, name),
  requestTemplates: (rt, name) => requestTemplates(rt, name),
  search: (rt, name) => search(rt, { q: 'harbour', site: name }),
};

for (const kind of ['pglite', 'postgres'] as const) {
  describe(`operations on sites (${kind})`, () => {
    let scratch: ScratchDatabase | undefined;
    let rt: Runtime;
    before(async () => {
      scratch = kind === 'postgres' ? await createScratchDatabase() : undefined;
      rt = await openRuntime(loadEnv({ WINNOW_DATA_DIR: 'memory', WINNOW_LOG_LEVEL: 'silent', ...(scratch ? { DATABASE_URL: scratch.url } : {}) }));
    });
    after(async () => {
      await rt.close();
      await scratch?.drop();
    });

    describe('site names as they enter the operations', () => {
      before(() => addSite(rt, siteInput('news')));

      test('a name that cannot be a site (a NUL byte, wrong characters, spaces, too long) is "no site named …" in every operation', async () => {
        for (const [operation, run] of Object.entries(BY_NAME)) {
          // A filter left empty is a mistake of its own (below), not a site named "".
          for (const name of IMPOSSIBLE_NAMES.filter((name) => operation !== 'search' || name !== '')) {
            await assert.rejects(
              run(rt, name),
              (error: Error) => error instanceof SiteNotFoundError && error.message === `no site named ${JSON.stringify(name)}`,
              `${operation}(${JSON.stringify(name)})`,
            );
          }
        }
        assert.equal((await requireSite(rt, 'news')).name, 'news', 'a real name still finds its site');
      });

      test('an empty site filter is a bad value, not "every site" nor a site named ""', async () => {
        await assert.rejects(
          search(rt, { q: 'harbour', site: '' }),
          (error: Error) => error instanceof InvalidRequestError && error.message === 'site must not be empty: leave it out for every site',
        );
      });

      test('a very long name is quoted cut short in the message', async () => {
        await assert.rejects(requireSite(rt, `\u0000${'y'.repeat(5000)}`), (error: Error) => error instanceof SiteNotFoundError && error.message.length < 150);
      });
    });

    describe("changing some of a site's settings", () => {
      const schedulers = async (siteId: number) => ({
        template: (await rt.queues.queue('template').getJobScheduler(templateScheduleId(siteId)))?.every,
        recrawl: (await rt.queues.queue('crawl').getJobScheduler(recrawlScheduleId(siteId)))?.every,
      });

      test('a patch changes the settings it names, keeps the others, resets a null one to its default, and moves the schedules', async () => {
        const added = await addSite(rt, { ...siteInput('patched'), allow: ['http://127.0.0.1:9/a/**'], maxPages: 50, delayMs: 300 });
        assert.deepEqual(await schedulers(added.id), { template: undefined, recrawl: undefined });
        const patched = await updateSite(rt, 'patched', { maxPages: 7, delayMs: null, recrawlEveryMs: 60_000, templateEveryMs: null, name: 'patched' });
        assert.deepEqual(patched.config, { ...added.config, maxPages: 7, delayMs: 0, recrawlEveryMs: 60_000, templateEveryMs: 24 * 3600_000 });
        assert.deepEqual((await requireSite(rt, 'patched')).config, patched.config, 'what it answers is what is stored');
        assert.deepEqual(await schedulers(added.id), { template: 24 * 3600_000, recrawl: 60_000 });
        const back = await updateSite(rt, 'patched', { recrawlEveryMs: 0, templateEveryMs: 0, allow: null });
        assert.deepEqual(back.config.allow, [], 'a list is reset to its default too');
        assert.deepEqual(await schedulers(added.id), { template: undefined, recrawl: undefined });
        await removeSite(rt, 'patched');
      });

      test('a site an earlier version stored with settings this one refuses is read with the problem named, and a patch can fix it', async () => {
        await addSite(rt, siteInput('legacy'));
        // A glob written as a path (refused since) and a setting this version does not have.
        await rt.db.query(`UPDATE sites SET config = config || '{"allow": ["/articles/**"], "retiredSetting": 3}'::jsonb WHERE name = 'legacy'`);
        const stored = await requireSite(rt, 'legacy');
        assert.deepEqual(stored.config.allow, ['/articles/**']);
        assert.match(stored.configProblem ?? '', /allow\.0: glob "\/articles\/\*\*" refused: globs match whole URLs/);
        assert.ok(!('retiredSetting' in stored.config), 'a setting this version does not have is dropped');
        assert.ok(
          (await listSites(rt.db)).some((site) => site.name === 'legacy'),
          'the site is still listed',
        );
        await assert.rejects(updateSite(rt, 'legacy', { maxPages: 5 }), /allow\.0: glob "\/articles\/\*\*" refused/, 'a patch must fix it');
        const fixed = await updateSite(rt, 'legacy', { allow: ['http://127.0.0.1:9/articles/**'] });
        assert.equal(fixed.configProblem, null);
        assert.deepEqual((await requireSite(rt, 'legacy')).config.allow, ['http://127.0.0.1:9/articles/**']);
        await removeSite(rt, 'legacy');
      });

      test('a schedule under a second an earlier version stored stays off until the site is fixed (BullMQ would run it back to back)', async () => {
        const added = await addSite(rt, { ...siteInput('hasty'), templateEveryMs: 3600_000 });
        await rt.db.query(`UPDATE sites SET config = config || '{"templateEveryMs": 100, "recrawlEveryMs": 50}'::jsonb WHERE name = 'hasty'`);
        const stored = await requireSite(rt, 'hasty');
        assert.match(stored.configProblem ?? '', /templateEveryMs: must be 0 \(off\) or at least 1000 ms/);
        await syncSchedules(rt, stored); // as every worker does at start
        assert.deepEqual(await schedulers(added.id), { template: undefined, recrawl: undefined });
        await updateSite(rt, 'hasty', { templateEveryMs: 2000, recrawlEveryMs: 0 });
        assert.deepEqual(await schedulers(added.id), { template: 2000, recrawl: undefined });
        await removeSite(rt, 'hasty');
      });

      test('a patch whose result the schema refuses names the field and stores nothing; a rename or a non-object is refused', async () => {
        const added = await addSite(rt, siteInput('strict'));
        await assert.rejects(
          updateSite(rt, 'strict', { maxPages: 0, concurrency: 2 }),
          (error: Error) => error instanceof SiteConfigError && /maxPages: /.test(error.message),
        );
        await assert.rejects(
          updateSite(rt, 'strict', { seeds: null, maxPages: 5 }),
          (error: Error) =>
            error instanceof SiteConfigError &&
            error.message === 'invalid site configuration: seeds: cannot be reset: a site needs at least one seed URL (give the seeds that replace them)',
        );
        await assert.rejects(updateSite(rt, 'strict', { maxPagez: 3 }), (error: Error) => error instanceof SiteConfigError && /maxPagez/.test(error.message));
        await assert.rejects(
          updateSite(rt, 'strict', { allowPrivateAddresses: null }),
          (error: Error) => error instanceof SiteConfigError && /seeds\.0: refused: 127\.0\.0\.1 is a private address/.test(error.message),
          'the whole merged configuration is checked: the seed needs what the patch takes away',
        );
        await assert.rejects(updateSite(rt, 'strict', { name: 'other' }), /the body names the site "other" and the path "strict": a site cannot be renamed/);
        for (const patch of [null, [], 'maxPages=5', undefined]) {
          await assert.rejects(updateSite(rt, 'strict', patch), InvalidRequestError, JSON.stringify(patch));
        }
        assert.deepEqual((await requireSite(rt, 'strict')).config, added.config);
        await assert.rejects(
          updateSite(rt, 'nosuch', { maxPages: 5 }),
          (error: Error) => error instanceof SiteNotFoundError && error.message === 'no site named "nosuch"',
        );
        await removeSite(rt, 'strict');
      });

      test('patches of different settings made at once all apply', async () => {
        await addSite(rt, siteInput('busy'));
        const patches = [{ maxPages: 11 }, { maxDepth: 3 }, { concurrency: 2 }, { delayMs: 50 }, { sitemaps: true }, { maxSitemaps: 9 }];
        await Promise.all(patches.map((patch) => updateSite(rt, 'busy', patch)));
        const { config } = await requireSite(rt, 'busy');
        assert.deepEqual([config.maxPages, config.maxDepth, config.concurrency, config.delayMs, config.sitemaps, config.maxSitemaps], [11, 3, 2, 50, true, 9]);
        await removeSite(rt, 'busy');
      });
    });
  });
}

for (const kind of ['postgres', 'elasticsearch'] as const) {
  describe(`search and site removal with the ${kind} index`, () => {
    let cluster: LocalElasticsearch | undefined;
    let rt: Runtime;
    const refresh = async () => {
      if (rt.search.kind === 'elasticsearch') await (rt.search as ElasticsearchIndex).refresh();
    };
    before(async () => {
      cluster = kind === 'elasticsearch' ? await elasticsearchForTests() : undefined;
      rt = await openRuntime(
        loadEnv({
          WINNOW_DATA_DIR: 'memory',
          WINNOW_LOG_LEVEL: 'silent',
          ...(cluster ? { ELASTICSEARCH_URL: cluster.url, WINNOW_ES_ALIAS: `winnow-test-${randomBytes(4).toString('hex')}` } : {}),
        }),
      );
      await addSite(rt, siteInput('news'));
      await rt.search.upsert(Array.from({ length: 30 }, (_, i) => doc('news', i + 1)));
      // A document of a site that does not exist, as a removal cut short would leave it.
      await rt.search.upsert([doc('ghost', 100)]);
      await refresh();
    });
    after(async () => {
      await rt.close();
      await cluster?.stop();
    });

    test(`paging past the first ${MAX_RESULT_WINDOW} results is a 400-class error that says the limit, whichever index answers`, async () => {
      for (const [page, size] of [
        [101, 100],
        [1001, 10],
        [10_001, 1],
      ] as const) {
        await assert.rejects(
          search(rt, { q: 'harbour', page, size }),
          (error: Error) => error instanceof InvalidRequestError && error.message.includes(`only the first ${MAX_RESULT_WINDOW} results`),
          `page ${page} of size ${size}`,
        );
      }
      const last = await search(rt, { q: 'harbour', page: 100, size: 100 });
      assert.deepEqual([last.total, last.hits.length], [30, 0], 'the page that ends at the limit is answered');
    });

    test('a search never returns a document of a site that does not exist', async () => {
      const everywhere = await search(rt, { q: 'harbour', size: 100 });
      assert.equal(everywhere.total, 30);
      assert.deepEqual([...new Set(everywhere.hits.map((hit) => hit.site))], ['news']);
      assert.equal(await rt.search.count('ghost'), 1, 'the document is there, only never found');
    });

    test('removing a site whose row is gone but whose documents are not finishes the removal; a name with neither is unknown', async () => {
      await removeSite(rt, 'ghost');
      await refresh();
      assert.equal(await rt.search.count('ghost'), 0);
      await assert.rejects(removeSite(rt, 'ghost'), SiteNotFoundError);
      await removeSite(rt, 'news');
      await refresh();
      assert.equal(await rt.search.count('news'), 0);
      await assert.rejects(requireSite(rt, 'news'), SiteNotFoundError);
    });
  });
}

describe('the embedded database on disk (real PGlite)', () => {
  test("its folder is its owner's alone, a folder left open by an older version included: PGlite's own files are world-writable", async () => {
    const parent = mkdtempSync(join(tmpdir(), 'winnow-datadir-'));
    const dataDir = join(parent, 'pglite');
    mkdirSync(dataDir, { mode: 0o755 });
    chmodSync(dataDir, 0o755);
    try {
      const rt = await openRuntime(loadEnv({ WINNOW_DATA_DIR: dataDir, WINNOW_LOG_LEVEL: 'silent', DATABASE_URL: '', REDIS_URL: '', ELASTICSEARCH_URL: '' }));
      try {
        assert.equal(statSync(dataDir).mode & 0o777, 0o700);
      } finally {
        await rt.close();
      }
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });
});

import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { after, describe, test } from 'node:test';
import { parseSiteConfig, SITE_DEFAULTS } from '@winnow/config';
import { DatabaseUnavailableError, openDb, type Db } from './db.js';
import { claimRevisits, findCrawl, insertCrawl, settleCrawl } from './crawls.js';
import { admitUrls, leaseUrls, unreachedPages, urlsInFrontier } from './frontier.js';
import { MIGRATIONS_DIR, migrate } from './migrate.js';
import { notAdmitted, recordNotAdmitted } from './notAdmitted.js';
import { findPage, storedAnswer, upsertFetchedPage } from './pages.js';
import { loadRawPages, storeRawPage } from './rawPages.js';
import { deleteSite, findSite, insertSite, SiteExistsError } from './sites.js';
import { createScratchDatabase } from './testing/scratchDatabase.js';

test('a Postgres that cannot be reached is named as the database, with the reason', async () => {
  await assert.rejects(
    openDb({ databaseUrl: 'postgres://127.0.0.1:1/winnow' }),
    (error: Error) =>
      error instanceof DatabaseUnavailableError &&
      /^Postgres at 127\.0\.0\.1:1\/winnow \(DATABASE_URL\) cannot be used: connect ECONNREFUSED/.test(error.message),
  );
});

const site = parseSiteConfig({ name: 'example', seeds: ['http://127.0.0.1:1/'], allowPrivateAddresses: true });

for (const kind of ['pglite', 'postgres'] as const) {
  describe(`storage on ${kind}`, async () => {
    const scratch = kind === 'postgres' ? await createScratchDatabase() : undefined;
    const db: Db = await openDb({ databaseUrl: scratch?.url, dataDir: 'memory' });
    after(async () => {
      await db.close();
      await scratch?.drop();
    });

    test('migrations apply once, then nothing is pending', async () => {
      const first = await migrate(db);
      // A server's new database is empty; a new embedded one starts from the build's migrated copy
      // (emptyDatabase.ts), made by this same `migrate` on PGlite.
      if (kind === 'postgres') assert.ok(first.includes('0001_pipeline.sql'), `applied: ${first.join(', ')}`);
      else assert.deepEqual(first, []);
      const files = (await readdir(MIGRATIONS_DIR)).filter((name) => name.endsWith('.sql')).sort();
      assert.deepEqual(
        (await db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name')).map((row) => row.name),
        files,
      );
      assert.deepEqual(await migrate(db), []);
    });

    test('a transaction commits its work, rolls it back when the work throws, and errors keep their Postgres code', async () => {
      await db.exec('CREATE TABLE scratch (n int)');
      await db.transaction(async (tx) => {
        await tx.query('INSERT INTO scratch VALUES (1)');
        await tx.query('INSERT INTO scratch VALUES (2)');
      });
      await assert.rejects(
        db.transaction(async (tx) => {
          await tx.query('INSERT INTO scratch VALUES (3)');
          throw new Error('the work failed');
        }),
        /the work failed/,
      );
      assert.deepEqual(await db.query('SELECT n FROM scratch ORDER BY n'), [{ n: 1 }, { n: 2 }]);
      await assert.rejects(db.query('SELECT * FROM no_such_table'), (error: Error & { code?: string }) => error.code === '42P01');
      const body = Buffer.from([0, 1, 2, 255]);
      assert.deepEqual(Buffer.from(((await db.query<{ b: Uint8Array }>('SELECT $1::bytea AS b', [body]))[0] as { b: Uint8Array }).b), body);
    });

    test('a body is stored once however many pages return it', async () => {
      const stored = await insertSite(db, site);
      const body = Buffer.from('<html><body><p>same bytes</p></body></html>');
      const first = await storeRawPage(db, body);
      const second = await storeRawPage(db, body);
      assert.equal(first, second);
      const a = await upsertFetchedPage(db, {
        siteId: stored.id,
        url: 'http://127.0.0.1:1/a',
        crawlId: null,
        status: 200,
        headers: {},
        contentType: 'text/html',
        contentHash: first,
        fetchError: null,
      });
      const b = await upsertFetchedPage(db, {
        siteId: stored.id,
        url: 'http://127.0.0.1:1/b',
        crawlId: null,
        status: 200,
        headers: {},
        contentType: 'text/html',
        contentHash: second,
        fetchError: null,
      });
      assert.notEqual(a, b);
      const again = await upsertFetchedPage(db, {
        siteId: stored.id,
        url: 'http://127.0.0.1:1/a',
        crawlId: null,
        status: 200,
        headers: {},
        contentType: 'text/html',
        contentHash: first,
        fetchError: null,
      });
      assert.equal(again, a, 'a URL keeps its page id across fetches');
      const [{ count }] = (await db.query<{ count: number }>('SELECT count(*)::int AS count FROM raw_pages')) as [{ count: number }];
      assert.equal(count, 1);
      assert.deepEqual((await loadRawPages(db, [first])).get(first), body);
      assert.equal((await findPage(db, a))?.contentHash, first);
    });

    test('a crawl counts links beyond maxDepth it has not admitted, in reason order', async () => {
      const stored = await findSite(db, 'example');
      assert.ok(stored);
      const crawl = await insertCrawl(db, stored.id);
      await db.query("UPDATE crawls SET state = 'running' WHERE id = $1", [crawl.id]);
      const entry = (url: string) => ({ url, host: '127.0.0.1:1', kind: 'page' as const, depth: 1, pattern: '/:slug' });
      await admitUrls(db, crawl.id, stored.id, [entry('http://127.0.0.1:1/a')], { maxPages: 10, maxPerPattern: 0, maxSitemaps: 10 });
      const urls = ['http://127.0.0.1:1/a', 'http://127.0.0.1:1/b'];
      assert.deepEqual([...(await urlsInFrontier(db, crawl.id, urls))], ['http://127.0.0.1:1/a']);
      await recordNotAdmitted(db, crawl.id, [
        { reason: 'max-pages', urls: 2, examples: ['http://127.0.0.1:1/c', 'http://127.0.0.1:1/d'] },
        { reason: 'max-depth', urls: 1, examples: ['http://127.0.0.1:1/b'] },
      ]);
      const counted = (await notAdmitted(db, crawl.id)).map(({ reason, urls }) => ({ reason, urls }));
      assert.deepEqual(counted, [
        { reason: 'max-depth', urls: 1 },
        { reason: 'max-pages', urls: 2 },
      ]);
    });

    test('one lease spreads over many hosts though one host has the oldest URLs, and two owners never share a URL', async () => {
      const stored = await insertSite(db, parseSiteConfig({ name: 'spread', seeds: ['http://big.test/'] }));
      const crawl = await insertCrawl(db, stored.id);
      // Earlier tests' crawls end, so that every URL leased here is this crawl's.
      await db.query("UPDATE crawls SET state = CASE WHEN id = $1 THEN 'running' ELSE 'finished' END WHERE id = $1 OR state = 'running'", [crawl.id]);
      const entry = (host: string, path: string) => ({ url: `http://${host}/${path}`, host, kind: 'page' as const, depth: 1, pattern: '/:slug' });
      const bigHost = Array.from({ length: 200 }, (_, i) => entry('big.test', `p${i}`));
      const others = Array.from({ length: 50 }, (_, i) => entry(`h${i}.test`, 'a'));
      await admitUrls(db, crawl.id, stored.id, [...bigHost, ...others], { maxPages: 1000, maxPerPattern: 0, maxSitemaps: 10 });

      const first = await leaseUrls(db, 'owner-a', 50, 60_000);
      const perHost = new Map<string, number>();
      for (const url of first) perHost.set(url.host, (perHost.get(url.host) ?? 0) + 1);
      assert.equal(first.length, 50);
      assert.ok(perHost.size >= 45, `one lease of 50 held ${perHost.size} hosts`);
      assert.ok(Math.max(...perHost.values()) <= SITE_DEFAULTS.concurrency, "at most a host's slots");
      assert.deepEqual(
        first.map((url) => url.id),
        first.map((url) => url.id).toSorted((a, b) => a - b),
        'oldest first',
      );

      const second = await leaseUrls(db, 'owner-b', 50, 60_000);
      const firstIds = new Set(first.map((url) => url.id));
      assert.ok(second.length > 0 && second.every((url) => !firstIds.has(url.id)), 'a URL leased and live is not leased again');
      assert.deepEqual(
        second.map((url) => url.host),
        others.map((other) => other.host).filter((host) => !perHost.has(host)),
        'a host whose slots are all leased is passed over; the rest of the hosts come next',
      );
      const owners = await db.query<{ lease_owner: string; urls: number }>(
        "SELECT lease_owner, count(*)::int AS urls FROM frontier WHERE crawl_id = $1 AND state = 'leased' GROUP BY lease_owner ORDER BY lease_owner",
        [crawl.id],
      );
      assert.deepEqual(owners, [
        { lease_owner: 'owner-a', urls: first.length },
        { lease_owner: 'owner-b', urls: second.length },
      ]);
      await db.query("UPDATE crawls SET state = 'finished' WHERE id = $1", [crawl.id]);
    });

    test("a running crawl with nothing left ends only once its site's unreached pages were admitted, claimed once", async () => {
      const stored = await insertSite(db, parseSiteConfig({ name: 'revisited', seeds: ['http://127.0.0.1:2/'], allowPrivateAddresses: true }));
      const body = Buffer.from('<html><body><a href="/next">next</a></body></html>');
      const hash = await storeRawPage(db, body);
      const page = (url: string, contentHash: string | null) =>
        upsertFetchedPage(db, {
          siteId: stored.id,
          url,
          crawlId: null,
          status: 200,
          headers: { etag: '"1"' },
          contentType: 'text/html',
          contentHash,
          fetchError: null,
        });
      const linked = await page('http://127.0.0.1:2/linked', hash);
      const unreached = await page('http://127.0.0.1:2/unreached', hash);
      await page('http://127.0.0.1:2/refused', null);
      assert.deepEqual(await storedAnswer(db, linked), { status: 200, headers: { etag: '"1"' }, contentHash: hash });

      const crawl = await insertCrawl(db, stored.id);
      await db.query("UPDATE crawls SET state = 'running' WHERE id = $1", [crawl.id]);
      const entry = { url: 'http://127.0.0.1:2/linked', host: '127.0.0.1:2', kind: 'page' as const, depth: 1, pattern: '/:slug' };
      await admitUrls(db, crawl.id, stored.id, [entry], { maxPages: 10, maxPerPattern: 0, maxSitemaps: 10 });
      assert.equal(await claimRevisits(db, crawl.id), undefined, 'a URL is still queued');
      await db.query("UPDATE frontier SET state = 'done', outcome = 'unchanged' WHERE crawl_id = $1", [crawl.id]);
      assert.equal(await settleCrawl(db, crawl.id), null, 'the revisits are not admitted yet');
      assert.deepEqual(
        (await unreachedPages(db, stored.id, crawl.id, 0, 10)).map((unreached) => unreached.url),
        ['http://127.0.0.1:2/unreached'],
        'pages with a body that the crawl did not reach',
      );
      assert.deepEqual(await unreachedPages(db, stored.id, crawl.id, unreached, 10), [], 'paged by page id');
      assert.equal(await claimRevisits(db, crawl.id), stored.id);
      assert.equal(await claimRevisits(db, crawl.id), undefined, 'claimed once');
      assert.equal(await settleCrawl(db, crawl.id), 'finished');
    });

    test("revisits are admitted whatever the crawl's budgets, and use none of them", async () => {
      const stored = await insertSite(db, parseSiteConfig({ name: 'budgeted', seeds: ['http://127.0.0.1:3/'], allowPrivateAddresses: true }));
      const crawl = await insertCrawl(db, stored.id);
      await db.query("UPDATE crawls SET state = 'running' WHERE id = $1", [crawl.id]);
      const entry = (path: string, revisit = false) => ({
        url: `http://127.0.0.1:3/${path}`,
        host: '127.0.0.1:3',
        kind: 'page' as const,
        depth: 1,
        pattern: '/:slug',
        revisit,
      });
      const limits = { maxPages: 2, maxPerPattern: 2, maxSitemaps: 10 };
      assert.equal((await admitUrls(db, crawl.id, stored.id, [entry('a'), entry('b')], limits)).admitted, 2, 'the budgets are full');
      assert.deepEqual(await admitUrls(db, crawl.id, stored.id, [entry('r1', true), entry('r2', true), entry('r3', true)], limits), {
        admitted: 3,
        overBudget: [],
      });
      assert.equal((await findCrawl(db, crawl.id))?.counts.revisited, 3);
      // One more page and one more of the pattern: room for one link, whatever the three revisits.
      const wider = { maxPages: 3, maxPerPattern: 3, maxSitemaps: 10 };
      const more = await admitUrls(db, crawl.id, stored.id, [entry('c'), entry('d')], wider);
      assert.deepEqual([more.admitted, more.overBudget.map(({ reason, urls }) => [reason, urls])], [1, [['max-pages', 1]]]);
    });

    test('site names are unique and deleting a site removes its pages', async () => {
      await assert.rejects(insertSite(db, site), SiteExistsError);
      const stored = await findSite(db, 'example');
      assert.ok(stored);
      assert.equal(await deleteSite(db, 'example'), true);
      const rows = await db.query('SELECT 1 FROM pages WHERE site_id = $1', [stored.id]);
      assert.equal(rows.length, 0);
      assert.equal(await deleteSite(db, 'example'), false);
    });
  });
}

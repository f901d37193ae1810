import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { parseSiteConfig } from '@winnow/config';
import {
  archiveTotals,
  type Db,
  type FetchToArchive,
  insertCrawl,
  insertSite,
  loadRawPages,
  migrate,
  openDb,
  postgresBodies,
  storeFetchedPage,
  touchPage,
} from '@winnow/storage';
import { createScratchDatabase } from '@winnow/storage/testing';
import { WarcArchiver } from './archiver.js';
import { siteWarc } from './exportWarc.js';
import { isStoreOutage, ObjectStore } from './objectStore.js';
import { checkWarc } from './testing/checkWarc.js';
import { type LocalS3Proxy, S3PROXY_CREDENTIAL, S3PROXY_IDENTITY, startLocalS3Proxy } from './testing/localS3Proxy.js';
import { WarcBodyStore } from './warcBodies.js';

const silent = { info: () => undefined, warn: () => undefined };
const FILE_BYTES = 64 * 1024;

function storeAt(endpoint: string, bucket: string): ObjectStore {
  return new ObjectStore({
    bucket,
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: S3PROXY_IDENTITY, secretAccessKey: S3PROXY_CREDENTIAL },
    retryForMs: 0,
  });
}

function archiver(db: Db, store: ObjectStore): WarcArchiver {
  return new WarcArchiver(db, store, { fileBytes: FILE_BYTES, flushMs: 0, leaseMs: 60_000, prefix: 'warc/', userAgent: 'WinnowTest/1', log: silent });
}

const fetched = (kind: FetchToArchive['kind'], status = 200): FetchToArchive => ({
  kind,
  status,
  responseHeaders: { 'content-type': 'text/html; charset=utf-8', 'content-encoding': 'gzip', etag: '"v1"' },
  requestHeaders: { 'user-agent': 'WinnowTest/1', accept: 'text/html' },
  metadata: { site: 'example', crawl: '1', depth: '0', 'decoded-content-encoding': 'gzip' },
});

/** A page of about 6 KB that compresses little (random text): sizes of files follow the number of pages. */
const pageBody = (n: number) => Buffer.from(`<html><body><h1>page ${n}</h1><p>${randomBytes(4500).toString('base64')}</p></body></html>`);

async function count(db: Db, sql: string): Promise<number> {
  return ((await db.query<{ n: number }>(sql))[0] as { n: number }).n;
}

let proxy: LocalS3Proxy;
before(async () => {
  proxy = await startLocalS3Proxy();
});
after(async () => {
  await proxy.stop();
});

for (const kind of ['pglite', 'postgres'] as const) {
  describe(`WARC archive on ${kind}`, async () => {
    const scratch = kind === 'postgres' ? await createScratchDatabase() : undefined;
    const db: Db = await openDb({ databaseUrl: scratch?.url, dataDir: 'memory' });
    await migrate(db);
    const bucket = `winnow-${kind}`;
    after(async () => {
      await db.close();
      await scratch?.drop();
    });

    /** Stores `n` pages of a new site (plus an identical body at another URL, an unchanged refetch and a 304), staged for the archive. */
    async function crawlSite(name: string, n: number) {
      const site = await insertSite(db, parseSiteConfig({ name, seeds: ['http://127.0.0.1:1/'], allowPrivateAddresses: true }));
      const crawl = await insertCrawl(db, site.id);
      const bodies = new Map<number, Buffer>();
      for (let i = 0; i < n; i++) {
        const body = pageBody(i);
        const fetch = { siteId: site.id, url: `http://127.0.0.1:1/${name}/${i}`, crawlId: crawl.id, status: 200, headers: {}, contentType: 'text/html' };
        const { pageId } = await storeFetchedPage(db, fetch, body, fetched('stored'));
        bodies.set(pageId, body);
      }
      const first = bodies.entries().next().value as [number, Buffer];
      const copy = { siteId: site.id, url: `http://127.0.0.1:1/${name}/copy`, crawlId: crawl.id, status: 200, headers: {}, contentType: 'text/html' };
      const { pageId: copyId } = await storeFetchedPage(db, copy, first[1], fetched('stored'));
      await touchPage(db, first[0], crawl.id, fetched('unchanged'));
      await touchPage(db, first[0], crawl.id, fetched('not-modified', 304));
      return { site, bodies, first: first[0], copyId };
    }

    test('fetches are staged with their page, then written into WARC files of a bounded size, located in Postgres, and read back from the store', async () => {
      const { bodies, first, copyId } = await crawlSite('bounded', 30);
      const staged = await archiveTotals(db);
      assert.equal(staged.staged, 33, 'every fetch is staged: 30 pages, the copy, the unchanged refetch and the 304');
      const store = storeAt(proxy.endpoint, bucket);
      const run = await archiver(db, store).archiveStaged();
      assert.equal(run.records, 33);
      assert.ok(run.files >= 3, `30 pages of about 5 KB compressed fill several files of 64 KB (${run.files})`);
      assert.equal((await archiveTotals(db)).staged, 0);

      const files = await db.query<{ object_key: string; byte_length: number }>('SELECT object_key, byte_length FROM warc_files ORDER BY id');
      assert.equal(files.length, run.files);
      for (const file of files) {
        assert.ok(file.byte_length <= FILE_BYTES, `${file.object_key}: ${file.byte_length} bytes, at most ${FILE_BYTES}`);
        assert.match(file.object_key, /^warc\/[0-9a-f]{64}\.warc\.gz$/);
      }
      assert.equal(
        await count(db, 'SELECT count(*)::int AS n FROM raw_pages WHERE body IS NOT NULL'),
        0,
        'every body left Postgres once its file was uploaded',
      );

      const types = await db.query<{ page_id: number; fetch_kind: string; record_type: string }>(
        'SELECT page_id, fetch_kind, record_type FROM warc_records ORDER BY id',
      );
      assert.equal(types.filter((row) => row.record_type === 'response').length, 30, 'one response record per distinct body');
      assert.deepEqual(
        types
          .filter((row) => row.record_type === 'revisit')
          .map((row) => [row.page_id === copyId ? 'copy' : row.page_id === first ? 'first' : row.page_id, row.fetch_kind]),
        [
          ['copy', 'stored'],
          ['first', 'unchanged'],
          ['first', 'not-modified'],
        ],
      );

      // Every body read back through the store, from its record, as stored.
      const warcBodies = new WarcBodyStore(db, store);
      const hashes = await db.query<{ id: number; content_hash: string }>('SELECT id, content_hash FROM pages WHERE id = ANY($1::int[])', [[...bodies.keys()]]);
      const loaded = await warcBodies.load(hashes.map((row) => row.content_hash));
      for (const row of hashes) assert.deepEqual(loaded.get(row.content_hash), bodies.get(row.id), `page ${row.id}`);

      // Each file read whole by warcio's parser: digests valid, and every located record starts where Postgres says.
      const located = await db.query<{ object_key: string; record_offset: number; record_id: string; record_type: string; content_hash: string }>(
        'SELECT f.object_key, w.record_offset, w.record_id::text AS record_id, w.record_type, w.content_hash FROM warc_records w JOIN warc_files f ON f.id = w.warc_file_id',
      );
      let records = 0;
      for (const file of files) {
        const checked = await checkWarc([await store.getRange(file.object_key, 0, file.byte_length)]);
        records += checked.length;
        assert.equal(checked[0]?.type, 'warcinfo');
        for (const row of located.filter((candidate) => candidate.object_key === file.object_key)) {
          const record = checked.find((candidate) => candidate.offset === row.record_offset);
          assert.equal(record?.recordId, `<urn:uuid:${row.record_id}>`);
          assert.equal(record?.type, row.record_type);
          assert.equal(record?.payloadDigest, `sha256:${row.content_hash}`, 'the payload digest is the content hash');
        }
        const profiles = checked.filter((record) => record.type === 'revisit').map((record) => record.profile?.split('/').at(-1));
        for (const profile of profiles) assert.ok(profile === 'identical-payload-digest' || profile === 'server-not-modified');
      }
      // warcinfo per file; response or revisit, request and metadata per fetch.
      assert.equal(records, files.length + 33 * 3);
      store.close();
    });

    test('an upload that fails loses nothing: the claims go back, the bodies stay in Postgres and are read from there, and a later run archives them', async () => {
      const { bodies } = await crawlSite('outage', 4);
      const dead = storeAt('http://127.0.0.1:9', bucket);
      await assert.rejects(archiver(db, dead).archiveStaged(), (error: Error) => isStoreOutage(error) && /cannot be reached/.test(error.message));
      dead.close();
      assert.equal((await archiveTotals(db)).staged, 7, 'nothing was taken: the claims were given back');
      const hashes = await db.query<{ id: number; content_hash: string }>('SELECT id, content_hash FROM pages WHERE id = ANY($1::int[])', [[...bodies.keys()]]);
      const staged = await loadRawPages(
        db,
        hashes.map((row) => row.content_hash),
      );
      assert.equal(staged.size, 4, 'the bodies are still in Postgres');
      // Readers go on meanwhile: the body store serves staged bodies without the object store.
      const whileDown = await new WarcBodyStore(db, storeAt('http://127.0.0.1:9', bucket)).load(hashes.map((row) => row.content_hash));
      assert.equal(whileDown.size, 4);

      const store = storeAt(proxy.endpoint, bucket);
      const run = await archiver(db, store).archiveStaged();
      assert.equal(run.records, 7);
      assert.equal(
        (
          await loadRawPages(
            db,
            hashes.map((row) => row.content_hash),
          )
        ).size,
        0,
      );
      const loaded = await new WarcBodyStore(db, store).load(hashes.map((row) => row.content_hash));
      for (const row of hashes) assert.deepEqual(loaded.get(row.content_hash), bodies.get(row.id));
      store.close();
    });

    test('an archiver that died holding claims loses nothing: its rows wait until the claim lapses, then another archiver writes them', async () => {
      await crawlSite('lapsed', 2);
      const [claimed] = await db.query<{ n: number }>(
        `WITH c AS (UPDATE warc_records SET claimed_by = 'a process that died', claimed_until = now() + interval '1 hour' WHERE warc_file_id IS NULL RETURNING 1)
         SELECT count(*)::int AS n FROM c`,
      );
      assert.equal(claimed?.n, 5);
      const store = storeAt(proxy.endpoint, bucket);
      assert.equal((await archiver(db, store).archiveStaged()).records, 0, 'rows another archiver holds are left to it');
      await db.query(`UPDATE warc_records SET claimed_until = now() - interval '1 second' WHERE claimed_by = 'a process that died'`);
      assert.equal((await archiver(db, store).archiveStaged()).records, 5);
      store.close();
    });

    test('archivers running at once write each fetch once', async () => {
      await crawlSite('parallel', 40);
      const stores = [storeAt(proxy.endpoint, bucket), storeAt(proxy.endpoint, bucket)];
      const runs = await Promise.all(stores.map((store) => archiver(db, store).archiveStaged()));
      assert.equal(
        runs.reduce((sum, run) => sum + run.records, 0),
        43,
      );
      assert.equal(await count(db, 'SELECT count(*)::int AS n FROM warc_records WHERE warc_file_id IS NULL'), 0);
      for (const store of stores) store.close();
    });

    test("a site's WARC export copies its archived records and writes the staged ones, and warcio's parser reads it with every digest valid", async () => {
      const { site, bodies } = await crawlSite('exported', 5);
      const store = storeAt(proxy.endpoint, bucket);
      // Three fetches archived, the other five still staged.
      await db.query(
        `UPDATE warc_records SET claimed_by = 'later', claimed_until = now() + interval '1 hour' WHERE site_id = $1 AND id NOT IN (SELECT id FROM warc_records WHERE site_id = $1 ORDER BY id LIMIT 3)`,
        [site.id],
      );
      assert.equal((await archiver(db, store).archiveStaged()).records, 3);
      const warcBodies = new WarcBodyStore(db, store);
      const chunks: Buffer[] = [];
      for await (const chunk of siteWarc(db, warcBodies, store, { id: site.id, name: site.name, rendered: false })) chunks.push(chunk);
      const records = await checkWarc(chunks);
      assert.equal(records[0]?.type, 'warcinfo');
      const responses = records.filter((record) => record.type === 'response');
      assert.equal(responses.length, 5);
      assert.deepEqual(
        records.filter((record) => record.type === 'revisit').map((record) => record.profile?.split('/').at(-1)),
        ['identical-payload-digest', 'identical-payload-digest', 'server-not-modified'],
      );
      assert.equal(records.filter((record) => record.type === 'request').length, 8);
      const digests = new Set(responses.map((record) => record.payloadDigest));
      const hashes = await db.query<{ content_hash: string }>('SELECT content_hash FROM pages WHERE id = ANY($1::int[])', [[...bodies.keys()]]);
      for (const row of hashes) assert.ok(digests.has(`sha256:${row.content_hash}`));
      store.close();
    });

    test('with Postgres bodies, the export builds a response record for each page from its latest fetch', async () => {
      const site = await insertSite(db, parseSiteConfig({ name: 'postgres-only', seeds: ['http://127.0.0.1:1/'], allowPrivateAddresses: true }));
      const body = pageBody(1);
      for (const path of ['a', 'b']) {
        await storeFetchedPage(
          db,
          {
            siteId: site.id,
            url: `http://127.0.0.1:1/${path}`,
            crawlId: null,
            status: 200,
            headers: { 'content-type': 'text/html' },
            contentType: 'text/html',
          },
          body,
        );
      }
      const chunks: Buffer[] = [];
      for await (const chunk of siteWarc(db, postgresBodies(db), undefined, { id: site.id, name: site.name, rendered: false })) chunks.push(chunk);
      const records = await checkWarc(chunks);
      assert.deepEqual(
        records.map((record) => record.type),
        ['warcinfo', 'response', 'revisit'],
      );
      assert.equal(records[2]?.refersTo, records[1]?.recordId, 'the same body at the second URL refers to the first record');
    });
  });
}

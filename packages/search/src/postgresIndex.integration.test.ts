import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { migrate, MIGRATIONS_DIR, openDb, type Db } from '@winnow/storage';
import { createScratchDatabase, type ScratchDatabase } from '@winnow/storage/testing';
import { PostgresSearchIndex } from './postgresIndex.js';
import { parseQuery } from './query.js';
import { documentIdFor, type IndexDocument, MAX_RESULT_WINDOW } from './searchIndex.js';
import { testDocument } from './testing/documents.js';
import { WORD_RULE_PHRASES, WORD_RULE_TEXT } from './testing/wordRule.js';
import { INTERRUPTED_TEXT, PHRASES_NOT_READ_PAST, PHRASES_READ_PAST } from './testing/interruptions.js';

async function addSite(db: Db, name: string): Promise<number> {
  const [row] = await db.query<{ id: number }>(`INSERT INTO sites (name, config) VALUES ($1, '{}') RETURNING id`, [name]);
  return (row as { id: number }).id;
}

async function addPage(db: Db, siteId: number, url: string): Promise<number> {
  const [row] = await db.query<{ id: number }>('INSERT INTO pages (site_id, url) VALUES ($1, $2) RETURNING id', [siteId, url]);
  return (row as { id: number }).id;
}

const doc = (site: string, pageId: number, url: string, mainText: string): IndexDocument => testDocument({ site, pageId, url, mainText });

/** A new database on either; `fromEmptyCopy: false` for PGlite without any migration applied. */
async function openScratch(kind: 'pglite' | 'postgres', options: { fromEmptyCopy?: boolean } = {}): Promise<{ db: Db; scratch: ScratchDatabase | undefined }> {
  const scratch = kind === 'postgres' ? await createScratchDatabase() : undefined;
  return { db: await openDb({ databaseUrl: scratch?.url, dataDir: 'memory', ...options }), scratch };
}

for (const kind of ['pglite', 'postgres'] as const) {
  describe(`the Postgres index on ${kind}`, () => {
    let db: Db;
    let scratch: ScratchDatabase | undefined;
    let index: PostgresSearchIndex;
    const search = (q: string, sites: string[]) => index.search({ query: parseQuery(q), sites, offset: 0, limit: 10 });

    before(async () => {
      ({ db, scratch } = await openScratch(kind));
      await migrate(db);
      index = new PostgresSearchIndex(db);
      await index.ensureReady();
    });
    after(async () => {
      await db.close();
      await scratch?.drop();
    });

    test("two sites that index the same URL keep a document each; removing one leaves the other's", async () => {
      const url = 'http://127.0.0.1:1/shared.html';
      const alpha = await addPage(db, await addSite(db, 'alpha'), url);
      const beta = await addPage(db, await addSite(db, 'beta'), url);
      await index.upsert([doc('alpha', alpha, url, 'The harbour master of alpha.')]);
      await index.upsert([doc('beta', beta, url, 'The harbour master of beta.')]);
      assert.equal(await index.count('alpha'), 1);
      assert.equal(await index.count('beta'), 1);
      assert.deepEqual(
        (await search('"harbour master"', ['alpha'])).hits.map((hit) => hit.site),
        ['alpha'],
      );
      assert.equal((await search('"harbour master"', ['alpha', 'beta'])).total, 2);
      await index.removeSite('alpha');
      assert.equal(await index.count('alpha'), 0);
      assert.equal(await index.count('beta'), 1);
      assert.deepEqual(
        (await search('"harbour master"', ['alpha', 'beta'])).hits.map((hit) => hit.site),
        ['beta'],
      );
    });

    test("lists every document's page and the extraction time it was written from, the latest write's", async () => {
      const siteId = await addSite(db, 'versions');
      const first = await addPage(db, siteId, 'http://127.0.0.1:1/v1.html');
      const second = await addPage(db, siteId, 'http://127.0.0.1:1/v2.html');
      const later = new Date('2026-11-02T03:04:05.678Z');
      await index.upsert([doc('versions', first, 'http://127.0.0.1:1/v1.html', 'one'), doc('versions', second, 'http://127.0.0.1:1/v2.html', 'two')]);
      await index.upsert([{ ...doc('versions', second, 'http://127.0.0.1:1/v2.html', 'two again'), extractedAt: later }]);
      const versions = await index.documentVersions();
      assert.equal(versions.get(first), Date.parse('2026-11-01T00:00:00Z'));
      assert.equal(versions.get(second), later.getTime());
      await index.removePages([first]);
      assert.equal((await index.documentVersions()).has(first), false);
    });

    test('finds a Chinese or Japanese word inside text written without spaces, in order, and marks it', async () => {
      const url = 'http://127.0.0.1:1/cjk.html';
      const page = await addPage(db, await addSite(db, 'cjk'), url);
      await index.upsert([doc('cjk', page, url, '北京明天天气晴朗，上海有小雨。東京都の公園はFacebookで人気です。')]);
      for (const query of ['北京', '"天气晴朗"', '公園', '"都の公園"', 'facebook']) assert.equal((await search(query, ['cjk'])).total, 1, query);
      for (const query of ['京北', '"北京上海"']) assert.equal((await search(query, ['cjk'])).total, 0, query);
      const [hit] = (await search('上海', ['cjk'])).hits;
      assert.match(hit?.highlights[0] ?? '', /<mark>上海<\/mark>有小雨/);
    });

    test('finds phrases typed as the page shows them where the text-search parser reads words its own way', async () => {
      const url = 'http://127.0.0.1:1/words.html';
      const page = await addPage(db, await addSite(db, 'words'), url);
      await index.upsert([doc('words', page, url, WORD_RULE_TEXT)]);
      for (const phrase of WORD_RULE_PHRASES) assert.equal((await search(`"${phrase}"`, ['words'])).total, 1, phrase);
      for (const query of ['"non business"', '"1 billion"', '"ABT 264"']) assert.equal((await search(query, ['words'])).total, 0, query);
    });

    test('finds a phrase across a caption, a credit or a dateline that interrupts the article, and marks it; not across three lines or a long one', async () => {
      const url = 'http://127.0.0.1:1/seals.html';
      const page = await addPage(db, await addSite(db, 'seals'), url);
      await index.upsert([doc('seals', page, url, INTERRUPTED_TEXT)]);
      for (const phrase of PHRASES_READ_PAST) assert.equal((await search(`"${phrase}"`, ['seals'])).total, 1, phrase);
      for (const phrase of PHRASES_NOT_READ_PAST) assert.equal((await search(`"${phrase}"`, ['seals'])).total, 0, phrase);
      const [hit] = (await search('"the harbour mouth the colony"', ['seals'])).hits;
      assert.match(hit?.highlights[0] ?? '', /<mark>the harbour mouth\. Photo: J\. Doe The colony<\/mark>/);
    });

    test('a document indexed before bridges were stored gets them when the index starts, and is found across an interruption', async () => {
      const url = 'http://127.0.0.1:1/older.html';
      const page = await addPage(db, await addSite(db, 'older'), url);
      await index.upsert([doc('older', page, url, INTERRUPTED_TEXT)]);
      await db.query(`UPDATE search_documents SET bridge_words = NULL WHERE site = 'older'`);
      const [phrase] = PHRASES_READ_PAST;
      assert.equal((await search(`"${phrase}"`, ['older'])).total, 0, 'as migration 0020 leaves it');
      assert.equal((await search('"harbour seals return"', ['older'])).total, 1, 'its main text still matches');
      await new PostgresSearchIndex(db).ensureReady();
      for (const found of PHRASES_READ_PAST) assert.equal((await search(`"${found}"`, ['older'])).total, 1, found);
      const [row] = await db.query<{ without: number }>('SELECT count(*)::int AS without FROM search_documents WHERE bridge_words IS NULL');
      assert.equal(row?.without, 0);
    });

    test('a search returns documents of the sites it lists only, and nothing for no site', async () => {
      const url = 'http://127.0.0.1:1/listed.html';
      const page = await addPage(db, await addSite(db, 'listed'), url);
      await index.upsert([doc('listed', page, url, 'Only the listed lighthouse.'), doc('unlisted', 999_999, url, 'The unlisted lighthouse.')]);
      assert.deepEqual(
        (await search('lighthouse', ['listed', 'nosuch'])).hits.map((hit) => hit.site),
        ['listed'],
      );
      assert.deepEqual(await search('lighthouse', []), { total: 0, totalRelation: 'eq', hits: [] });
    });

    test('counts matches up to the paging window, and says when more match', async () => {
      const many = Array.from({ length: MAX_RESULT_WINDOW + 1 }, (_, i) =>
        doc('many', 1_000_000 + i, `http://127.0.0.1:1/many/${i}`, `Buoy ${i} marks the channel${i < 3 ? ' at the breakwater' : ''}.`),
      );
      await index.upsert(many);
      assert.deepEqual({ ...(await search('"marks the channel"', ['many'])), hits: [] }, { total: MAX_RESULT_WINDOW, totalRelation: 'gte', hits: [] });
      const few = await search('breakwater', ['many']);
      assert.deepEqual([few.total, few.totalRelation], [3, 'eq']);
      await index.removeSite('many');
    });

    test("removing pages removes those pages' documents only", async () => {
      const siteId = await addSite(db, 'pages');
      const kept = await addPage(db, siteId, 'http://127.0.0.1:1/kept.html');
      const removed = await addPage(db, siteId, 'http://127.0.0.1:1/removed.html');
      await index.upsert([doc('pages', kept, 'http://127.0.0.1:1/kept.html', 'kept'), doc('pages', removed, 'http://127.0.0.1:1/removed.html', 'removed')]);
      await index.removePages([removed, 123_456]);
      const rows = await db.query<{ page_id: number }>(`SELECT page_id FROM search_documents WHERE site = 'pages'`);
      assert.deepEqual(
        rows.map((row) => row.page_id),
        [kept],
      );
    });
  });

  describe(`migration 0002 on ${kind}: URL-keyed documents become documents per site and URL`, () => {
    let db: Db;
    let scratch: ScratchDatabase | undefined;
    let firstOnly: string;
    /** The old id: the URL alone. */
    const urlKeyedId = (url: string) => createHash('sha256').update(url).digest('hex').slice(0, 32);

    before(async () => {
      ({ db, scratch } = await openScratch(kind, { fromEmptyCopy: false }));
      firstOnly = await mkdtemp(join(tmpdir(), 'winnow-migrations-'));
      await copyFile(join(MIGRATIONS_DIR, '0001_pipeline.sql'), join(firstOnly, '0001_pipeline.sql'));
      assert.deepEqual(await migrate(db, firstOnly), ['0001_pipeline.sql']);
    });
    after(async () => {
      await db.close();
      await scratch?.drop();
      await rm(firstOnly, { recursive: true, force: true });
    });

    test('rows are re-keyed, rows of removed sites dropped, and a page that lost its document to another site gets it back', async () => {
      const shared = 'http://127.0.0.1:1/shared.html';
      const own = 'http://127.0.0.1:1/own.html';
      const alpha = await addSite(db, 'alpha');
      const beta = await addSite(db, 'beta');
      const alphaShared = await addPage(db, alpha, shared);
      const alphaOwn = await addPage(db, alpha, own);
      const betaShared = await addPage(db, beta, shared);
      for (const [pageId, text] of [
        [alphaShared, 'alpha reads the shared page'],
        [alphaOwn, 'alpha reads its own page'],
        [betaShared, 'beta reads the shared page'],
      ] as const) {
        await db.query(
          `INSERT INTO extractions (page_id, content_hash, method, title, blocks, main_text, template_version, extracted_at)
           VALUES ($1, 'hash', 'fastce+', $2, '[]', $2, 3, '2026-11-02T00:00:00Z')`,
          [pageId, text],
        );
      }
      // As the URL-keyed indexer left them: beta wrote the shared URL last, so alpha's page has no document; a removed site's document stayed.
      const insert = `INSERT INTO search_documents (doc_id, page_id, site, url, main_text, extracted_at) VALUES ($1, $2, $3, $4, $5, '2026-11-02T00:00:00Z')`;
      await db.query(insert, [urlKeyedId(shared), betaShared, 'beta', shared, 'beta reads the shared page']);
      await db.query(insert, [urlKeyedId(own), alphaOwn, 'alpha', own, 'alpha reads its own page']);
      await db.query(insert, [urlKeyedId('http://127.0.0.1:1/gone.html'), 999_999, 'gone', 'http://127.0.0.1:1/gone.html', 'a removed site']);

      assert.equal((await migrate(db))[0], '0002_documents_per_site.sql', 'the re-keying migration runs on the rows of 0001');

      const rows = await db.query<{ doc_id: string; page_id: number; site: string; url: string; main_text: string; title: string }>(
        'SELECT doc_id, page_id, site, url, main_text, title FROM search_documents ORDER BY site, url',
      );
      assert.deepEqual(rows, [
        { doc_id: documentIdFor('alpha', own), page_id: alphaOwn, site: 'alpha', url: own, main_text: 'alpha reads its own page', title: '' },
        {
          doc_id: documentIdFor('alpha', shared),
          page_id: alphaShared,
          site: 'alpha',
          url: shared,
          main_text: 'alpha reads the shared page',
          title: 'alpha reads the shared page',
        },
        { doc_id: documentIdFor('beta', shared), page_id: betaShared, site: 'beta', url: shared, main_text: 'beta reads the shared page', title: '' },
      ]);
      const index = new PostgresSearchIndex(db);
      assert.equal((await index.search({ query: parseQuery('"reads the shared page"'), sites: ['alpha', 'beta'], offset: 0, limit: 10 })).total, 2);
    });
  });
}

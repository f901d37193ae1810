import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { loadEnv, parseSiteConfig } from '@winnow/config';
import { UnrecoverableError } from '@winnow/queue';
import { openRuntime, type Runtime } from '@winnow/runtime';
import { findExtraction, insertSite, storeFetchedPage } from '@winnow/storage';
import { extractPage, TemplateCache } from './extractPage.js';

const paragraph = (i: number) => `<p>The harbour master counted ${i} boats at dawn, and wrote each one into the ledger by hand.</p>`;
const article = (body: string) => `<html><head><title>Harbour</title></head><body><article><h1>Harbour</h1>${body}</article></body></html>`;

describe('extracting stored pages whose bodies carry control characters (real PGlite and Redis)', () => {
  let rt: Runtime;
  let siteId: number;
  let n = 0;
  const store = async (html: string) => {
    n++;
    const fetched = { siteId, url: `http://127.0.0.1:9/articles/${n}.html`, crawlId: null, status: 200, headers: {}, contentType: 'text/html; charset=utf-8' };
    return (await storeFetchedPage(rt.db, fetched, Buffer.from(html))).pageId;
  };

  before(async () => {
    rt = await openRuntime(loadEnv({ WINNOW_DATA_DIR: 'memory', WINNOW_LOG_LEVEL: 'silent', WINNOW_CPU_THREADS: '1' }));
    siteId = (await insertSite(rt.db, parseSiteConfig({ name: 'harbour', seeds: ['http://127.0.0.1:9/'], allowPrivateAddresses: true }))).id;
  });
  after(async () => {
    await rt.close();
  });

  test('a page with NUL bytes in its text is extracted and saved, each NUL as U+FFFD', async () => {
    const pageId = await store(article(`${paragraph(1)}${paragraph(2)}<p>Tide\u0000table\u0000for the week.</p>${paragraph(3)}`));
    await extractPage(rt, new TemplateCache(), pageId);
    const saved = await findExtraction(rt.db, pageId);
    assert.ok(saved, 'the extraction is stored');
    assert.match(saved.mainText, /Tide\ufffdtable\ufffdfor the week/);
    assert.match(saved.warnings.join(' '), /NUL characters were replaced by U\+FFFD/);
  });

  test('a page with a stray few other C0 controls is extracted and saved, without them in its text', async () => {
    const stray = Array.from({ length: 40 }, (_, i) => paragraph(i))
      .join('')
      .replace('counted 7', 'counted \u0001\u0002\u0003 7');
    const pageId = await store(article(stray));
    await extractPage(rt, new TemplateCache(), pageId);
    const saved = await findExtraction(rt.db, pageId);
    assert.match(saved?.mainText ?? '', /harbour master counted 7 boats/);
    assert.doesNotMatch(saved?.mainText ?? '', /[\u0001-\u0003]/);
  });

  test('a page as full of controls as binary data (several % of its start) fails for good, not retried', async () => {
    const noisy = Array.from({ length: 40 }, (_, i) => paragraph(i).replace('counted', 'counted \u0001\u0002\u0003')).join('');
    const pageId = await store(article(noisy));
    await assert.rejects(
      extractPage(rt, new TemplateCache(), pageId),
      (error: Error) => error instanceof UnrecoverableError && /the page is binary data, not an HTML document: 3% of its first characters/.test(error.message),
    );
  });

  test('a body the parsers cannot read (only whitespace) fails for good, not retried', async () => {
    const pageId = await store(' \n\t \n');
    await assert.rejects(
      extractPage(rt, new TemplateCache(), pageId),
      (error: Error) => error instanceof UnrecoverableError && /the page is empty/.test(error.message),
    );
  });
});

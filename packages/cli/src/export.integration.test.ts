import assert from 'node:assert/strict';
import { createReadStream } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { checkWarc } from '@winnow/archive/testing';
import { serveGeneratedSite, type GeneratedSite } from '@winnow/crawler/testing';
import { parse } from 'csv-parse/sync';
import { type EmbeddedCli, embeddedCli } from './testing/embeddedCli.js';

const COLUMNS = ['url', 'title', 'page_title', 'main_text', 'method', 'template_version', 'extracted_at', 'duplicate_of'];

const HEADLINE = 'Harbour Lights Return After Forty Years';
const SITE_NAME = 'Blue Heron Journal';

describe('winnow export', () => {
  let site: GeneratedSite;
  let cli: EmbeddedCli;
  before(async () => {
    // One article's <title> adds the site's name to its headline, as a news site's does.
    site = await serveGeneratedSite({
      pages: 12,
      override: (request, response) => {
        if (new URL(request.url ?? '/', 'http://localhost').pathname !== '/articles/5.html') return false;
        const links = [6, 7, 8].map((n) => `<li><a href="/articles/${n}.html">Article ${n}</a></li>`).join('');
        response
          .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
          .end(
            `<!DOCTYPE html><html><head><title>${HEADLINE} | ${SITE_NAME}</title></head><body><nav><a href="/">Home</a></nav><article><h1>${HEADLINE}</h1><p>Article number 5 of the generated site tells its own short story of the harbour, word 35 and word 65.</p></article><ul class="more">${links}</ul></body></html>`,
          );
        return true;
      },
    });
    cli = await embeddedCli('export', { WINNOW_LOG_LEVEL: 'silent' });
    await cli.winnow('sites', 'add', 'harbour', '--seed', `${site.origin}/`, '--allow-private', '--template-every-ms', '0');
    await cli.winnow('crawl', 'harbour');
  });
  after(async () => {
    await site.close();
  });

  test('writes each extracted page as a JSON line: url, title, main text, method, template version, extracted_at', async () => {
    const { stdout } = await cli.winnow('export', 'harbour');
    const lines = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.equal(lines.length, site.paths.length);
    assert.deepEqual(Object.keys(lines[0] ?? {}), COLUMNS);
    assert.deepEqual(lines.map((line) => new URL(line.url as string).pathname).sort(), [...site.paths].sort());
    const article = lines.find((line) => (line.url as string).endsWith('/articles/3.html'));
    assert.equal(article?.title, 'Article 3');
    assert.match(article?.main_text as string, /Article number 3 of the generated site/);
    assert.ok(!Number.isNaN(Date.parse(article?.extracted_at as string)));
  });

  test("exports the article's headline as title, as the search index has it, and the page's <title> as page_title", async () => {
    const lines = (await cli.winnow('export', 'harbour')).stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const titled = lines.find((line) => (line.url as string).endsWith('/articles/5.html'));
    assert.equal(titled?.title, HEADLINE);
    assert.equal(titled?.page_title, `${HEADLINE} | ${SITE_NAME}`);
    const plain = lines.find((line) => (line.url as string).endsWith('/articles/3.html'));
    assert.equal(plain?.page_title, 'Article 3');
    const hits = JSON.parse((await cli.winnow('search', '"harbour lights return"', '--site', 'harbour', '--json')).stdout) as {
      hits: { url: string; title: string; pageTitle: string }[];
    };
    const hit = hits.hits.find((h) => h.url === titled?.url);
    assert.deepEqual([hit?.title, hit?.pageTitle], [titled?.title, titled?.page_title], 'the same titles as its search document');
  });

  test('writes CSV with a header row that a CSV reader reads back, multi-line texts included', async () => {
    const output = join(await mkdtemp(join(tmpdir(), 'winnow-export-')), 'harbour.csv');
    const { stdout } = await cli.winnow('export', 'harbour', '--format', 'csv', '--output', output);
    assert.equal(stdout, '', 'with --output, nothing on stdout');
    const rows = parse(await readFile(output, 'utf8'), { columns: true }) as Record<string, string>[];
    assert.equal(rows.length, site.paths.length);
    assert.deepEqual(Object.keys(rows[0] ?? {}), COLUMNS);
    const jsonl = (await cli.winnow('export', 'harbour')).stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { url: string; main_text: string });
    for (const line of jsonl) assert.equal(rows.find((row) => row.url === line.url)?.main_text, line.main_text, line.url);
  });

  test("writes the site's fetches as a WARC file that warcio's parser reads back, every digest valid", async () => {
    const output = join(await mkdtemp(join(tmpdir(), 'winnow-export-')), 'harbour.warc.gz');
    await cli.winnow('export', 'harbour', '--format', 'warc', '--output', output);
    const records = await checkWarc(createReadStream(output));
    assert.equal(records[0]?.type, 'warcinfo');
    const responses = records.filter((record) => record.type === 'response');
    assert.equal(responses.length, site.paths.length, 'with Postgres bodies: a response record per page, built from its latest fetch');
    assert.deepEqual(responses.map((record) => new URL(record.targetUri ?? '').pathname).sort(), [...site.paths].sort());
  });

  test('refuses an unknown format or site, naming it', async () => {
    await assert.rejects(cli.winnow('export', 'harbour', '--format', 'xml'), (error: { code?: number; stderr?: string }) => {
      assert.equal(error.code, 2);
      assert.match(error.stderr ?? '', /Allowed choices are jsonl, csv, warc/);
      return true;
    });
    await assert.rejects(cli.winnow('export', 'nowhere'), (error: { code?: number; stderr?: string }) => {
      assert.notEqual(error.code, 0);
      assert.match(error.stderr ?? '', /no site named "nowhere"/);
      return true;
    });
  });
});

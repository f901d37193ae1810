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

const COLUMNS = ['url', 'title', 'main_text', 'method', 'template_version', 'extracted_at', 'duplicate_of'];

describe('winnow export', () => {
  let site: GeneratedSite;
  let cli: EmbeddedCli;
  before(async () => {
    site = await serveGeneratedSite({ pages: 12 });
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

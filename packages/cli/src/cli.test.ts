import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';

const main = fileURLToPath(new URL('./main.js', import.meta.url));
const run = promisify(execFile);
const winnow = (...args: string[]) => run(process.execPath, [main, ...args], { maxBuffer: 64 * 1024 * 1024 });
const fails = async (args: string[], message: RegExp) => {
  await assert.rejects(winnow(...args), (error: { code?: number; stderr?: string }) => {
    assert.notEqual(error.code, 0);
    assert.match(error.stderr ?? '', message);
    return true;
  });
};

describe('winnow eval', () => {
  it('prints the fixed JSON report and writes predictions', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'winnow-cli-'));
    const predictions = join(folder, 'predictions.jsonl');
    const { stdout } = await winnow('eval', '--demo', '--method', 'fastce+', '--json', '--predictions', predictions);
    const report = JSON.parse(stdout);
    assert.deepEqual(Object.keys(report), ['method', 'pages', 'sites', 'shingle', 'bow_f1', 'lcs_f1', 'ms_per_page', 'per_site']);
    assert.equal(report.method, 'fastce+');
    assert.equal(report.sites, 3);
    assert.ok(report.lcs_f1 >= 0.95, `demo lcs_f1 ${report.lcs_f1}`);
    const lines = (await readFile(predictions, 'utf8')).trim().split('\n').map((line) => JSON.parse(line));
    assert.equal(lines.length, report.pages);
    assert.deepEqual(Object.keys(lines[0]), ['id', 'site', 'text']);
  });

  it('reads a dataset file and honours --min-pages-per-site and --folds', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'winnow-cli-'));
    const page = (i: number, site: string) => JSON.stringify({ id: `${site}-${i}`, site, url: null, html: `<ul><li>Home</li></ul><p>story ${i} text</p>`, gold: `story ${i} text`, meta: {} });
    const lines = [...Array.from({ length: 4 }, (_, i) => page(i, 'big.example')), page(9, 'small.example')];
    await writeFile(join(folder, 'pages.jsonl.gz'), gzipSync(lines.join('\n')));
    const { stdout } = await winnow('eval', '--data', folder, '--method', 'ce', '--min-pages-per-site', '4', '--folds', '2', '--json');
    const report = JSON.parse(stdout);
    assert.equal(report.pages, 4);
    assert.equal(report.per_site[0].site, 'big.example');
    assert.equal(report.lcs_f1, 1);
  });

  it('answers bad input with a clear error and a failing exit code', async () => {
    await fails(['eval', '--demo', '--method', 'magic'], /unknown method "magic"; known methods: fastce/);
    await fails(['eval', '--method', 'fastce'], /exactly one of --data/);
    await fails(['eval', '--data', '/nonexistent/place', '--method', 'fastce'], /no such file or folder/);
    await fails(['eval', '--demo', '--method', 'fastce', '--folds', 'x'], /positive integer/);
  });
});

describe('winnow demo', () => {
  it('learns a template and prints the clean text of an unseen page', async () => {
    const { stdout, stderr } = await winnow('demo', '--site', 'almanac');
    assert.match(stderr, /Learned a fastce\+ template from 24 pages/);
    assert.ok(stdout.split('\n').length > 5);
    assert.ok(!/Discussion|Read next|written by volunteers/.test(stdout), stdout);
  });
});

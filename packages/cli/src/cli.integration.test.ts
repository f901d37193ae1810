import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { SITE_CONFIG_SCHEMA } from '@winnow/config';
import { freePort } from '@winnow/queue/testing';
import { CLI_MAIN, embeddedCli, embeddedEnv, runCli } from './testing/embeddedCli.js';
import { listenOnLoopback } from '@winnow/demo-corpus';

const winnow = (...args: string[]) => runCli(args);
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
    assert.deepEqual(Object.keys(report), [
      'method',
      'pages',
      'sites',
      'shingle',
      'bow_f1',
      'lcs_f1',
      'wcxb',
      'ms_per_page',
      'empty',
      'per_site',
      'gold_mismatch',
    ]);
    assert.equal(report.method, 'fastce+');
    assert.equal(report.sites, 5);
    assert.ok(report.lcs_f1 >= 0.95, `demo lcs_f1 ${report.lcs_f1}`);
    const lines = (await readFile(predictions, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.equal(lines.length, report.pages);
    assert.deepEqual(Object.keys(lines[0]), ['id', 'site', 'text']);
  });

  it('reads a dataset file and honours --min-pages-per-site and --folds', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'winnow-cli-'));
    const page = (i: number, site: string) =>
      JSON.stringify({ id: `${site}-${i}`, site, url: null, html: `<ul><li>Home</li></ul><p>story ${i} text</p>`, gold: `story ${i} text`, meta: {} });
    const lines = [...Array.from({ length: 4 }, (_, i) => page(i, 'big.example')), page(9, 'small.example')];
    await writeFile(join(folder, 'pages.jsonl.gz'), gzipSync(lines.join('\n')));
    const { stdout } = await winnow('eval', '--data', folder, '--method', 'ce', '--min-pages-per-site', '4', '--folds', '2', '--json');
    const report = JSON.parse(stdout);
    assert.equal(report.pages, 4);
    assert.equal(report.per_site[0].site, 'big.example');
    assert.equal(report.lcs_f1, 1);
  });

  it('--replay serves a dataset site, crawls, indexes and searches it through the embedded product', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'winnow-replay-'));
    const story = (i: number) =>
      `Story ${i} tells how the river rose after ${i} days of rain and how the neighbours carried sandbags to the houses by the water until late at night.`;
    const page = (i: number) =>
      JSON.stringify({
        id: `river-${String(i).padStart(2, '0')}`,
        site: 'river.example',
        url: `http://river.example/news/flood-${i}.html`,
        html: `<html><body><nav><a href="/">Home of the river valley gazette</a></nav><article><h1>Flood report number ${i}</h1><p>${story(i)}</p><p>${story(i + 20)}</p></article><footer>Copyright the river valley gazette, every right reserved</footer></body></html>`,
        gold: `Flood report number ${i}\n${story(i)}\n${story(i + 20)}`,
        meta: {},
      });
    await writeFile(join(folder, 'pages.jsonl.gz'), gzipSync(Array.from({ length: 10 }, (_, i) => page(i + 1)).join('\n')));
    const reportFile = join(folder, 'replay.json');
    const { stdout } = await winnow('eval', '--replay', folder, '--no-kfold', '--search', '5', '--report', reportFile);
    assert.match(stdout, /exact-phrase searches/);
    const report = JSON.parse(await readFile(reportFile, 'utf8'));
    assert.equal(report.overall.pages, 10);
    assert.equal(report.overall.notStored, 0);
    assert.equal(report.kfoldSeconds, null);
    assert.ok(report.overall.lcsIndexed > 0.9, `crawled lcs ${report.overall.lcsIndexed}`);
    assert.deepEqual(Object.keys(report.search.rates), ['inside', 'across', 'boilerplate']);
    assert.equal(report.search.all.inside.phrases, 5);
    assert.equal(report.search.rates.inside, 1);
    assert.equal(report.search.rates.boilerplate, 0);
  });

  it('answers bad input with a clear error and a failing exit code', async () => {
    await fails(['eval', '--replay', 'x', '--method', 'pipeline'], /leave out --method/);
    await fails(['eval', '--data', 'x'], /give --method/);
    await fails(['eval', '--demo', '--method', 'magic'], /unknown method "magic"; known methods: pipeline, fastce/);
    await fails(['eval', '--method', 'fastce'], /exactly one of --data/);
    await fails(['eval', '--data', '/nonexistent/place', '--method', 'fastce'], /no such file or folder/);
    await fails(['eval', '--demo', '--method', 'fastce', '--folds', 'x'], /positive integer/);
  });
});

describe('winnow report', () => {
  it('scores every single-page method on every dataset folder and writes the table, the comparison and the plot', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'winnow-report-'));
    const story = (i: number) =>
      `Story ${i} tells how the river rose after three days of rain, how the bridge was closed at noon, and how the neighbours carried sandbags to the houses by the water until late at night.`;
    const page = (i: number) =>
      JSON.stringify({
        id: `news-${i}`,
        site: 'news.example',
        url: null,
        html: `<html><body><nav><a href="/">Home</a> <a href="/about">About</a></nav><article><h1>Flood ${i}</h1><p>${story(i)}</p><p>${story(i + 10)}</p></article><footer>Copyright News Example</footer></body></html>`,
        gold: `Flood ${i}\n${story(i)}\n${story(i + 10)}`,
        meta: {},
      });
    await mkdir(join(folder, 'news'));
    await writeFile(join(folder, 'news', 'pages.jsonl.gz'), gzipSync([1, 2, 3].map(page).join('\n')));
    const [out, plot] = [join(folder, 'evaluation.md'), join(folder, 'evaluation.svg')];
    await winnow('report', '--data', folder, '--out', out, '--plot', plot, '--jobs', '2');
    const markdown = await readFile(out, 'utf8');
    for (const method of ['auto', 'readability', 'mainblock', 'wlr', 'ccb', 'tccb', 'vge']) {
      assert.match(markdown, new RegExp(`\\| ${method} \\| [01]\\.\\d{3} \\| [01]\\.\\d{3} \\| [\\d.]+ \\|`), `no scores for ${method} in:\n${markdown}`);
    }
    // reader and auto against Readability: each score and its difference, then Readability's.
    assert.match(markdown, /\| news \| [01]\.\d{3} \| [+-]\d\.\d{3} \| [01]\.\d{3} \| [+-]\d\.\d{3} \| [01]\.\d{3} \|/);
    assert.doesNotMatch(markdown, /Runs that failed/);
    assert.match(await readFile(plot, 'utf8'), /^<svg[\s\S]*auto[\s\S]*<\/svg>/);
  });
});

describe('winnow demo', () => {
  it('runs the whole pipeline on the demo web, prints exact-phrase hits, and ends with commands that work on what it kept', async () => {
    const dir = join(await mkdtemp(join(tmpdir(), 'winnow-demo-')), 'demo');
    const { stdout } = await winnow('demo', '--articles', '30', '--data-dir', dir);
    for (const site of ['gazette', 'ledger', 'almanac', 'relaunch', 'forecast'])
      assert.match(stdout, new RegExp(`^${site}: crawl \\d+ finished: 33 stored, 0 unchanged, .*\n  pages: 33 stored,`, 'm'));
    assert.match(stdout, /a phrase that runs through a <span>: "[^"]+"\n[1-9]\d* pages? match/);
    assert.match(stdout, /a phrase that crosses two paragraphs: "[^"]+"\n[1-9]\d* pages? match/);
    assert.match(stdout, /0 pages match "Winter tyres at half price"/);
    assert.match(stdout, /«[^»]+»/, 'hits are highlighted');
    const next = stdout.slice(stdout.indexOf('\n== What next\n'));
    assert.match(next, new RegExp(`The demo's database is kept in ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(the next demo replaces it\\)`));
    const commands = [...next.matchAll(/^ {2}(winnow [^\n]+?)(?: {2,}.*)?$/gm)].map((match) => match[1] as string);
    assert.ok(commands.includes('winnow status') && commands.some((command) => command.startsWith('winnow search ')), next);
    const env = { ...process.env, WINNOW_DATA_DIR: join(dir, 'pglite'), DATABASE_URL: '', REDIS_URL: '', ELASTICSEARCH_URL: '', WINNOW_API_URL: '' };
    const status = await runCli(['status'], { env });
    assert.match(status.stdout, /^gazette: crawl \d+ finished: 33 stored/m, 'the status the demo printed, read back from its folder');
    const search = next.match(/^ {2}winnow search '(.+)'$/m)?.[1] as string;
    assert.match((await runCli(['search', search], { env })).stdout, /^[1-9]\d* pages? match/, `winnow search '${search}' afterwards`);
    const page = next.match(/^ {2}winnow page (\S+) --text$/m)?.[1] as string;
    assert.match((await runCli(['page', page, '--text'], { env })).stdout, /\n {2}main text:\n\n/);
  });

  it('keeps its data only in a folder of its own: an existing folder it did not make is refused, untouched', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'winnow-not-demo-'));
    await writeFile(join(dir, 'precious.txt'), 'keep me');
    await assert.rejects(winnow('demo', '--articles', '5', '--data-dir', dir), (error: { code?: number; stderr?: string }) => {
      assert.equal(error.code, 2);
      assert.match(error.stderr ?? '', /exists and is not a folder an earlier demo made: choose another --data-dir/);
      return true;
    });
    assert.equal(await readFile(join(dir, 'precious.txt'), 'utf8'), 'keep me');
  });
});

describe('winnow, called wrongly or asked for help', () => {
  it('answers a bad option value, an unknown option or command and a missing argument with the error and one line naming the help, status 2', async () => {
    const mistakes: [args: string[], error: string, help: string][] = [
      [
        ['sites', 'add', 'tide', '--seed', 'https://tide.example/', '--delay-ms', 'abc'],
        "winnow: option '--delay-ms <n>' argument 'abc' is invalid. expected a non-negative integer",
        'winnow sites add --help',
      ],
      [['crawl', 'tide', '--delay-ms', '5'], "winnow: unknown option '--delay-ms'", 'winnow crawl --help'],
      [['sites', 'nosuch'], "winnow: unknown command 'nosuch'", 'winnow sites --help'],
      [['search'], "winnow: missing required argument 'query'", 'winnow search --help'],
    ];
    for (const [args, error, help] of mistakes) {
      await assert.rejects(winnow(...args), (failure: { code?: number; stdout?: string; stderr?: string }) => {
        assert.deepEqual([failure.code, failure.stdout, failure.stderr], [2, '', `${error}\n(see \`${help}\`)\n`], args.join(' '));
        return true;
      });
    }
  });

  it('exits 2 for a bad value the operation finds after parsing (an unknown outcome, a date, a query, a site setting), 1 for what is not there', async () => {
    const { winnow: inEnv } = await embeddedCli('bad-values');
    await inEnv('sites', 'add', 'tide', '--seed', 'http://127.0.0.1:9/', '--allow-private');
    const exits = async (code: number, args: string[], message: RegExp) =>
      assert.rejects(inEnv(...args), (failure: { code?: number; stderr?: string }) => {
        assert.equal(failure.code, code, args.join(' '));
        assert.match(failure.stderr ?? '', message, args.join(' '));
        return true;
      });
    await exits(2, ['crawl-log', 'tide', '--outcome', 'bogus'], /^winnow: unknown outcome "bogus"; the crawl log lists: /);
    await exits(2, ['templates', 'health', 'tide', '--since', 'yesterday'], /^winnow: since must be an ISO 8601 date/);
    await exits(2, ['search', '""'], /^winnow: a quoted phrase has no words\n$/);
    await exits(2, ['search', 'tide', '--page', '200', '--size', '100'], /only the first 10000 results can be paged through/);
    await exits(2, ['search', 'tide', '--site', ''], /^winnow: site must not be empty: leave it out for every site\n$/);
    await exits(2, ['sites', 'add', 'ebb', '--seed', 'http://127.0.0.1:9/'], /seeds\.0: refused: 127\.0\.0\.1 is a private address/);
    await exits(1, ['crawl-log', 'nosuch', '--outcome', 'refused'], /^winnow: no site named "nosuch"\n$/);
    await exits(1, ['templates', 'show', 'tide', '--version', '3'], /^winnow: tide has no templates yet/);
  });

  it('shows the default of every site setting that takes a value, as the site schema declares it', async () => {
    const { name: _, ...defaults } = SITE_CONFIG_SCHEMA.parse({ name: 'tide', seeds: ['https://tide.example/'] });
    const withValues = Object.entries(defaults).filter(([, value]) => typeof value === 'number' || typeof value === 'string');
    assert.ok(withValues.some(([setting]) => setting === 'delayMs') && withValues.some(([setting]) => setting === 'concurrency'));
    for (const command of ['add', 'update']) {
      const help = (await winnow('sites', command, '--help')).stdout.replace(/\s+/g, ' ');
      for (const [setting, value] of withValues) {
        const flag = `--${setting.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
        // The default within the flag's own description, before the next flag's.
        assert.match(help, new RegExp(`${flag} <\\w+> (?:(?! --).)*\\(default: ${value}\\)`), `sites ${command} ${flag}`);
      }
    }
  });
});

describe('winnow, operating the embedded pipeline', () => {
  it('adds, lists and removes sites, and refuses bad input with a clear error', async () => {
    const { winnow: inEnv } = await embeddedCli('cli');
    const failsInEnv = async (args: string[], message: RegExp) =>
      assert.rejects(inEnv(...args), (error: { code?: number; stderr?: string }) => {
        assert.notEqual(error.code, 0);
        assert.match(error.stderr ?? '', message);
        return true;
      });
    await failsInEnv(['sites', 'add', 'example', '--seed', 'http://127.0.0.1:9/'], /seeds\.0: refused: 127\.0\.0\.1 is a private address/);
    await inEnv('sites', 'add', 'example', '--seed', 'http://127.0.0.1:9/', '--max-pages', '5', '--allow-private');
    await inEnv(
      'sites',
      'add',
      'mapped',
      '--seed',
      'https://mapped.example/',
      '--sitemaps',
      '--concurrency',
      '2',
      '--delay-ms',
      '250',
      '--allow',
      'https://mapped.example/news/**',
      '--min-template-pages',
      '4',
      '--template-every-ms',
      '0',
    );
    assert.equal(
      (await inEnv('sites', 'list')).stdout,
      'example\thttp\tmax 5 URLs\tconcurrency 4, delay 0 ms\tprivate addresses allowed, no sitemaps\tno templates yet (min 10 pages a type, every 1 d)\thttp://127.0.0.1:9/\n' +
        'mapped\thttp\tmax 1000 URLs\tconcurrency 2, delay 250 ms\tpublic addresses only, sitemaps\tno templates yet (min 4 pages a type, no schedule)\thttps://mapped.example/\tallow https://mapped.example/news/**\n',
    );
    assert.equal(
      (await inEnv('sites', 'update', 'example', '--max-pages', '7', '--delay-ms', '100', '--sitemaps')).stdout,
      'updated site example: maxPages 7, delayMs 100, sitemaps true\n' +
        'example\thttp\tmax 7 URLs\tconcurrency 4, delay 100 ms\tprivate addresses allowed, sitemaps\tno templates yet (min 10 pages a type, every 1 d)\thttp://127.0.0.1:9/\n',
    );
    assert.equal(
      (await inEnv('sites', 'update', 'example', '--reset', 'max-pages,sitemaps')).stdout,
      'updated site example: maxPages 1000 (default), sitemaps false (default)\n' +
        'example\thttp\tmax 1000 URLs\tconcurrency 4, delay 100 ms\tprivate addresses allowed, no sitemaps\tno templates yet (min 10 pages a type, every 1 d)\thttp://127.0.0.1:9/\n',
    );
    await failsInEnv(['sites', 'update', 'example', '--reset', 'allow-private'], /seeds\.0: refused: 127\.0\.0\.1 is a private address/);
    await failsInEnv(['sites', 'update', 'example', '--concurrency', '65'], /invalid site configuration: concurrency: /);
    await failsInEnv(['sites', 'update', 'nosuch', '--max-pages', '3'], /no site named "nosuch"/);
    await failsInEnv(['sites', 'update', 'example'], /nothing to change/);
    await failsInEnv(['sites', 'update', 'example', '--max-pages', '3', '--reset', 'max-pages'], /maxPages: given a value and --reset at once/);
    await failsInEnv(['sites', 'update', 'example', '--reset', 'seed'], /"seed" cannot be reset: a site needs at least one seed URL \(--seed replaces them\)/);
    await failsInEnv(['sites', 'update', 'example', '--reset', 'name'], /"name" is not a setting with a default; those are: allow, max-pages/);
    await inEnv('sites', 'remove', 'mapped');
    await failsInEnv(['sites', 'add', 'example', '--seed', 'http://127.0.0.1:9/', '--allow-private'], /site "example" already exists/);
    await failsInEnv(['sites', 'add', 'other', '--seed', 'not-a-url'], /seeds\.0: must be an absolute http\(s\) URL/);
    await failsInEnv(['crawl', 'nosuch'], /no site named "nosuch"/);
    // 127.0.0.1:9 (discard) refuses connections here: a crawl that fetched nothing says why and fails.
    await failsInEnv(['crawl', 'example'], /crawl \d+ of example failed: nothing could be fetched: .*connection refused/);
    await failsInEnv(['search', '"unclosed'], /unclosed quote/);
    await failsInEnv(['worker', 'nosuch'], /unknown worker "nosuch"/);
    assert.match((await inEnv('search', 'anything')).stdout, /^0 pages match anything/);
    await inEnv('sites', 'remove', 'example');
    assert.match((await inEnv('sites', 'list')).stdout, /no sites/);
  });

  it('runs its one-shot commands without a Redis: none is started (none could be, here), and status reports the queues idle', async () => {
    // No redis-server on the PATH: a command that started the private one would fail.
    const { winnow: inEnv } = await embeddedCli('no-redis', { PATH: '' });
    await inEnv('sites', 'add', 'quiet', '--seed', 'https://quiet.example/');
    await inEnv('sites', 'update', 'quiet', '--max-pages', '7');
    assert.match((await inEnv('sites', 'list')).stdout, /^quiet\thttp\tmax 7 URLs\t/);
    const status = JSON.parse((await inEnv('status', '--json')).stdout);
    const idle = { waiting: 0, active: 0, delayed: 0, failed: 0, completed: 0 };
    assert.deepEqual(status.queues, { crawl: idle, template: idle, extract: idle, index: idle, reconcile: idle });
    assert.deepEqual(status.failedJobs, []);
    // A command that runs the workers needs the private Redis, and says why it cannot start one.
    await assert.rejects(inEnv('crawl', 'quiet'), (error: { stderr?: string }) => {
      assert.match(error.stderr ?? '', /"redis-server" was not found/);
      return true;
    });
    await inEnv('sites', 'remove', 'quiet');
  });

  it('fills the progress bars of a crawl whose pages include a duplicate: the index bar counts the pages that get a document', async () => {
    const article =
      '<html><head><title>Tide tables</title></head><body><article><p>The spring tide rose over the harbour wall at dawn.</p></article></body></html>';
    const server = createServer((request, response) => {
      const bodies: Record<string, string> = {
        '/': '<html><body><a href="/a.html">a</a> <a href="/b.html">b</a></body></html>',
        '/a.html': article,
        '/b.html': article,
      };
      const body = bodies[request.url ?? ''];
      response.writeHead(body === undefined ? 404 : 200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(body ?? 'not here');
    });
    await listenOnLoopback(server);
    try {
      const { winnow: inEnv } = await embeddedCli('progress');
      await inEnv('sites', 'add', 'tides', '--seed', `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, '--allow-private');
      const { stdout, stderr } = await inEnv('crawl', 'tides');
      assert.match(stdout, /3 stored, .*\(1 duplicate indexed under another page\)/);
      const last = (stage: string) => [...stderr.matchAll(new RegExp(`${stage}\\s+\\S+ (\\d+)/(\\d+)`, 'g'))].at(-1)?.slice(1, 3);
      assert.deepEqual(last('crawled'), ['3', '3']);
      assert.deepEqual(last('extracted'), ['3', '3']);
      assert.deepEqual(last('indexed'), ['2', '2'], 'two documents: the duplicate has none');
    } finally {
      server.close();
    }
  });
});

describe('winnow up', () => {
  it('refuses to serve the API on a non-loopback address without a token, and exits', async () => {
    const env = await embeddedEnv('up', { WINNOW_API_HOST: '0.0.0.0', WINNOW_API_TOKEN: '' });
    for (const args of [['up'], ['worker', 'api']]) {
      // The timeout only ends a process that would otherwise hang with its workers running.
      await assert.rejects(runCli(args, { env, timeout: 300_000 }), (error: { code?: number; stderr?: string }) => {
        assert.equal(error.code, 1);
        assert.match(error.stderr ?? '', /^winnow: refusing to serve the API on 0\.0\.0\.0 without a token: WINNOW_API_HOST .* WINNOW_API_TOKEN/);
        return true;
      });
    }
  });

  it('refuses an unknown WINNOW_TEMPLATE_METHOD with the rest of the environment, before binding a port', async () => {
    const busy = createServer();
    await listenOnLoopback(busy);
    const env = { ...process.env, WINNOW_API_PORT: String((busy.address() as AddressInfo).port), WINNOW_TEMPLATE_METHOD: 'nope', WINNOW_DATA_DIR: 'memory' };
    try {
      await assert.rejects(runCli(['up'], { env, timeout: 60_000 }), (error: { code?: number; stderr?: string }) => {
        assert.equal(error.code, 2, 'a configuration to correct, as a usage error');
        assert.match(error.stderr ?? '', /WINNOW_TEMPLATE_METHOD: unknown template method "nope"; expected one of: pipeline, fastce, /);
        assert.doesNotMatch(error.stderr ?? '', /EADDRINUSE/);
        return true;
      });
    } finally {
      await new Promise((resolve) => busy.close(resolve));
    }
  });

  it('serves the API over the embedded default, keeps the database to itself (pointing other commands at its API), and stops on SIGTERM', async () => {
    const port = await freePort();
    const token = randomBytes(24).toString('hex');
    const env = await embeddedEnv('up', { WINNOW_API_PORT: String(port), WINNOW_API_TOKEN: token });
    const up = spawn(process.execPath, [CLI_MAIN, 'up'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => up.once('exit', resolve));
    try {
      let ready: Response | undefined;
      // Bounded only against a hang: an embedded `winnow up` has taken over 90 s to start on a loaded machine.
      for (let i = 0; i < 3000 && ready?.status !== 200; i++) {
        assert.equal(up.exitCode, null, 'winnow up exited before it was ready');
        await new Promise((resolve) => setTimeout(resolve, 100));
        ready = await fetch(`http://127.0.0.1:${port}/ready`).catch(() => undefined);
      }
      assert.equal(ready?.status, 200);
      const created = await fetch(`http://127.0.0.1:${port}/sites`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'via-api', seeds: ['http://127.0.0.1:9/'], allowPrivateAddresses: true }),
      });
      assert.equal(created.status, 201);
      const apiUrl = `http://127.0.0.1:${port}`;
      await assert.rejects(runCli(['sites', 'list'], { env }), (error: { stderr?: string }) => {
        assert.match(error.stderr ?? '', /in use by another winnow process/);
        assert.ok(error.stderr?.includes(`set WINNOW_API_URL=${apiUrl} (and WINNOW_API_TOKEN`), error.stderr);
        return true;
      });
      // A shell without the port `winnow up` was started with: the hint names the port it serves on.
      const { WINNOW_API_PORT: _, ...withoutPort } = env;
      await assert.rejects(runCli(['status'], { env: withoutPort }), (error: { stderr?: string }) => {
        assert.ok(error.stderr?.includes(`set WINNOW_API_URL=${apiUrl} (and WINNOW_API_TOKEN`), error.stderr);
        return true;
      });
      const throughApi = await runCli(['sites', 'list'], { env: { ...env, WINNOW_API_URL: apiUrl } });
      assert.match(throughApi.stdout, /^via-api\t/m, 'with WINNOW_API_URL the CLI uses the running API');
    } finally {
      up.kill('SIGTERM');
    }
    assert.equal(await exited, 0);
    const { stdout } = await runCli(['sites', 'list'], { env });
    assert.match(stdout, /^via-api\t/m, 'what the API stored is there after a clean stop');
  });
});

describe('winnow crawl, interrupted', () => {
  it('closes its workers and the pipeline on Ctrl-C and says what it left; a busy database is explained; the next crawl resumes the same crawl', async () => {
    // A site slow enough to interrupt: a home page linking to twenty articles, each answered after 400 ms.
    const articles = Array.from({ length: 20 }, (_, i) => `/articles/${i}.html`);
    let served = 0;
    const server = createServer((request, response) => {
      const path = request.url ?? '/';
      if (path === '/robots.txt') return void response.writeHead(404).end();
      served++;
      const body =
        path === '/'
          ? `<html><body><h1>Harbour news</h1>${articles.map((href) => `<a href="${href}">${href}</a>`).join(' ')}</body></html>`
          : `<html><body><article><h1>Story ${path}</h1><p>The ferry to the island ran late again today, the harbour master said.</p></article></body></html>`;
      setTimeout(() => response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body), 400);
    });
    const origin = await listenOnLoopback(server);
    const env = await embeddedEnv('interrupt');
    try {
      await runCli(['sites', 'add', 'slow', '--seed', `${origin}/`, '--allow-private', '--concurrency', '1'], { env });
      const crawl = spawn(process.execPath, [CLI_MAIN, 'crawl', 'slow'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      crawl.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const exited = new Promise<number | null>((resolve) => crawl.once('exit', resolve));
      // The crawl is under way once its workers have asked for an article.
      for (let i = 0; i < 600 && served < 3; i++) await new Promise((resolve) => setTimeout(resolve, 100));
      await assert.rejects(runCli(['status'], { env }), (error: { stderr?: string }) => {
        assert.match(error.stderr ?? '', /it serves no API \(a command such as `winnow crawl`/);
        return true;
      });
      crawl.kill('SIGINT');
      assert.equal(await exited, 130, stderr);
      assert.match(stderr, /interrupted: closing the workers/);
      assert.match(stderr, /left unfinished: `winnow crawl <site>` resumes it/);
      const status = await runCli(['status'], { env });
      const [, id] = /^slow: crawl (\d+) running/m.exec(status.stdout) ?? [];
      assert.ok(id, status.stdout);
      const resumed = await runCli(['crawl', 'slow'], { env });
      assert.match(resumed.stdout, new RegExp(`^resuming crawl ${id} of slow \\(running\\), left unfinished by an earlier command$`, 'm'));
      assert.match(resumed.stdout, new RegExp(`^slow: crawl ${id} finished: 21 stored`, 'm'));
    } finally {
      server.close();
    }
  });
});

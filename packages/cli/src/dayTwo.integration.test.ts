import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CLI_MAIN, embeddedCli, runCli } from './testing/embeddedCli.js';
import { closeServer, listenOnLoopback } from '@winnow/demo-corpus';

/** Expects the command to fail with `code`, its stderr matching `message`; returns the failure's output. */
async function fails(run: Promise<unknown>, code: number, message: RegExp): Promise<{ stdout: string; stderr: string }> {
  let failure: { code?: number; stdout?: string; stderr?: string } = {};
  await assert.rejects(run, (error: typeof failure) => {
    failure = error;
    return true;
  });
  assert.equal(failure.code, code, failure.stderr);
  assert.match(failure.stderr ?? '', message);
  return { stdout: failure.stdout ?? '', stderr: failure.stderr ?? '' };
}

const NAV = '<nav><a href="/">Home</a> <a href="/a.html">A</a> <a href="/b.html">B</a> <a href="/c.html">C</a></nav>';
const page = (title: string) =>
  `<!DOCTYPE html><html><head><title>${title}</title></head><body>${NAV}<main><article><h1>${title}</h1><p>The ferry to the island of ${title} leaves the harbour at dawn, and the tide decides whether it comes back before the lighthouse is lit.</p><p>Fishermen of ${title} mend their nets on the quay while the council argues about the new pier for the third winter running.</p></article></main><footer><p>Copyright the island gazette.</p></footer></body></html>`;

/** A small site on 127.0.0.1: a home page linking three articles, one redirect, and a PDF. */
function smallSite(): Server {
  return createServer((request, response) => {
    const path = request.url ?? '/';
    if (path === '/old.html') return void response.writeHead(301, { location: '/a.html' }).end();
    if (path === '/file.pdf') return void response.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.4');
    const title = { '/': 'Home', '/a.html': 'Alderney', '/b.html': 'Bryher', '/c.html': 'Colonsay' }[path];
    if (!title) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(title));
  });
}

describe('day-two commands', () => {
  let server: Server;
  let origin: string;
  before(async () => {
    server = smallSite();
    origin = await listenOnLoopback(server);
  });
  after(async () => {
    await closeServer(server);
  });

  test('status on an empty database says how to start', async () => {
    const { winnow } = await embeddedCli('empty-status');
    const { stdout } = await winnow('status');
    assert.match(
      stdout,
      /^no sites yet\. To start:\n {2}winnow sites add <name> --seed <url> .*\n {2}winnow crawl <name> .*\n {2}winnow search .*\n {2}winnow demo /,
    );
  });

  test('sites apply adds and updates many sites from one file, says what changed, and changes nothing the second time', async () => {
    const { winnow } = await embeddedCli('apply');
    const folder = await mkdtemp(join(tmpdir(), 'winnow-apply-'));
    const file = join(folder, 'sites.yaml');
    await winnow('sites', 'add', 'kept', '--seed', 'http://127.0.0.1:9/kept/', '--allow-private');
    await writeFile(
      file,
      `# two sites, in the API's terms\nsites:\n  - name: news\n    seeds: [http://127.0.0.1:9/news/]\n    allowPrivateAddresses: true\n  - name: blog\n    seeds:\n      - http://127.0.0.1:9/blog/\n    allowPrivateAddresses: true\n    maxPages: 50\n`,
    );
    const first = await winnow('sites', 'apply', file);
    assert.equal(
      first.stdout,
      `news: added (http://127.0.0.1:9/news/)\nblog: added (http://127.0.0.1:9/blog/)\n2 sites in ${file}: 2 added, 0 updated, 0 unchanged; not in the file, left as they are: kept\n`,
    );
    const again = await winnow('sites', 'apply', file);
    assert.equal(
      again.stdout,
      `news: unchanged\nblog: unchanged\n2 sites in ${file}: 0 added, 0 updated, 2 unchanged; not in the file, left as they are: kept\n`,
    );

    // blog's maxPages left out: it takes its default again, as a PUT does; news gets a glob.
    await writeFile(
      file,
      `- name: news\n  seeds: [http://127.0.0.1:9/news/]\n  allowPrivateAddresses: true\n  allow: ["http://127.0.0.1:9/news/**"]\n- name: blog\n  seeds: [http://127.0.0.1:9/blog/]\n  allowPrivateAddresses: true\n`,
    );
    const dry = await winnow('sites', 'apply', file, '--dry-run');
    assert.match(dry.stdout, /^news: would be updated: allow \[\] -> \["http:\/\/127\.0\.0\.1:9\/news\/\*\*"\]\nblog: would be updated: maxPages 50 -> 1000\n/);
    const unchanged = JSON.parse((await winnow('sites', 'list', '--json')).stdout) as { name: string; config: { maxPages: number } }[];
    assert.equal(unchanged.find((site) => site.name === 'blog')?.config.maxPages, 50, 'a dry run changes nothing');
    const updated = await winnow('sites', 'apply', file);
    assert.match(updated.stdout, /2 sites in .*: 0 added, 2 updated, 0 unchanged/);
    const listed = JSON.parse((await winnow('sites', 'list', '--json')).stdout) as { name: string; config: { maxPages: number; allow: string[] } }[];
    assert.deepEqual(
      listed.map((site) => [site.name, site.config.maxPages, site.config.allow]),
      [
        ['blog', 1000, []],
        ['kept', 1000, []],
        ['news', 1000, ['http://127.0.0.1:9/news/**']],
      ],
    );

    // A file with mistakes changes nothing, and names every one of them.
    await writeFile(
      file,
      `sites:\n  - name: news\n    seeds: [http://127.0.0.1:9/news/]\n    maxPages: 7\n    allowPrivateAddresses: true\n  - name: blog\n    seeds: [not-a-url]\n  - name: news\n    seeds: [http://127.0.0.1:9/again/]\n    allowPrivateAddresses: true\n  - just a string\n`,
    );
    const refused = await fails(winnow('sites', 'apply', file), 2, /nothing applied; fix these first:/);
    assert.match(refused.stderr, /site 2 \(blog\): invalid site configuration: seeds\.0: must be an absolute http\(s\) URL/);
    assert.match(refused.stderr, /site 3 \(news\): news is named twice in the file/);
    assert.match(refused.stderr, /site 4: expected the site's settings/);
    assert.equal(refused.stdout, '');
    const afterRefusal = JSON.parse((await winnow('sites', 'list', '--json')).stdout) as { name: string; config: { maxPages: number } }[];
    assert.equal(afterRefusal.find((site) => site.name === 'news')?.config.maxPages, 1000);
    await writeFile(file, 'sites: {news: 1}\n');
    await fails(winnow('sites', 'apply', file), 2, /expected a list of sites, or "sites:" holding one/);
    await writeFile(file, 'sites: [\n');
    await fails(winnow('sites', 'apply', file), 2, /not valid YAML/);
    await fails(winnow('sites', 'apply', join(folder, 'missing.yaml')), 2, /cannot read .*missing\.yaml: no such file/);
  });

  test('sites remove says what it removed', async () => {
    const { winnow } = await embeddedCli('remove');
    await winnow('sites', 'add', 'island', '--seed', `${origin}/`, '--allow-private');
    await winnow('crawl', 'island');
    const { stdout } = await winnow('sites', 'remove', 'island');
    assert.equal(stdout, 'removed site island: 1 crawl, 4 pages with their extractions, no templates, 4 index documents\n');
    await fails(winnow('sites', 'remove', 'island'), 1, /no site named "island"/);
  });

  test('extract reads one page on its own: a URL under the network policy, a file, or stdin; as text or JSON', async () => {
    const refused = await fails(runCli(['extract', `${origin}/a.html`]), 1, /127\.0\.0\.1 is a private address.*needs --allow-private/);
    assert.equal(refused.stdout, '');
    await fails(runCli(['extract', 'http://169.254.169.254/latest/', '--allow-private']), 1, /cloud metadata/);

    const { stdout: text } = await runCli(['extract', `${origin}/old.html`, '--allow-private']);
    assert.match(text, /^Alderney\nThe ferry to the island of Alderney leaves the harbour at dawn/);
    assert.doesNotMatch(text, /Copyright|Home/, 'the boilerplate stays out');
    const reading = JSON.parse((await runCli(['extract', `${origin}/old.html`, '--allow-private', '--json'])).stdout);
    assert.deepEqual(
      { ...reading, text: undefined },
      { source: `${origin}/a.html`, title: 'Alderney', method: 'reader', words: reading.words, warnings: [], text: undefined },
      'the redirect was followed',
    );
    assert.equal(reading.text, text.trimEnd());
    assert.ok(reading.words > 30);
    await fails(runCli(['extract', `${origin}/file.pdf`, '--allow-private']), 1, /is not HTML: application\/pdf/);
    await fails(runCli(['extract', `${origin}/nowhere.html`, '--allow-private']), 1, /answered HTTP 404/);

    const folder = await mkdtemp(join(tmpdir(), 'winnow-extract-'));
    const file = join(folder, 'page.html');
    await writeFile(file, Buffer.from(page('Sark Café'), 'utf8'));
    assert.equal((await runCli(['extract', file])).stdout, text.replaceAll('Alderney', 'Sark Café'));
    const piped = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, [CLI_MAIN, 'extract', '-', '--json'], { stdio: ['pipe', 'pipe', 'inherit'] });
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString('utf8');
      });
      child.on('error', reject);
      child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`exit ${code}`))));
      child.stdin.end(page('Herm'));
    });
    assert.deepEqual([JSON.parse(piped).source, JSON.parse(piped).title], ['-', 'Herm']);
    await fails(runCli(['extract', file, '--method', 'pipeline']), 2, /unknown single-page method "pipeline"; known: .*reader/);
    await fails(runCli(['extract', join(folder, 'nope.html')]), 2, /no such file \(a URL starts with http:\/\/ or https:\/\/\)/);
  });
});

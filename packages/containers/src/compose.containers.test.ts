import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { type DemoWeb, serveDemoWeb } from '@winnow/demo-corpus';
import { freePort } from './index.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../../', import.meta.url));

/** Asks until `done` holds; each wait is for the stack to do its work, and the deadline names what never happened. */
async function until<T>(what: string, probe: () => Promise<T | undefined>, deadlineMs = 600_000): Promise<T> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${deadlineMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/**
 * The whole stack of docker-compose.yml with the host-network override, on the images
 * infra/docker/build-images.sh built: an operator adds a site through the API and crawls it, and
 * the crawled text is in Elasticsearch, exact phrases included, and its fetches in the S3 store.
 */
describe('docker compose up (docker-compose.yml + docker-compose.host.yml)', () => {
  const project = `winnow-compose-${randomBytes(4).toString('hex')}`;
  const operate = `operate:${randomBytes(16).toString('hex')}`;
  const search = `search:${randomBytes(16).toString('hex')}`;
  const ports: Record<string, number> = {};
  let compose: (...args: string[]) => Promise<{ stdout: string }>;
  let web: DemoWeb;
  let api: string;
  let elasticsearch: string;

  before(async () => {
    for (const name of ['POSTGRES', 'REDIS', 'ELASTICSEARCH', 'S3', 'API', 'CRAWLER_WORKER', 'TEMPLATER_WORKER', 'EXTRACTOR_WORKER', 'INDEXER_WORKER'])
      ports[`HOSTNET_${name}_PORT`] = await freePort();
    const env = {
      ...process.env,
      ...Object.fromEntries(Object.entries(ports).map(([name, port]) => [name, String(port)])),
      WINNOW_API_TOKEN: `${operate},${search}`,
    };
    compose = (...args) =>
      run('docker', ['compose', '--project-name', project, '-f', 'docker-compose.yml', '-f', 'docker-compose.host.yml', ...args], {
        cwd: root,
        env,
        maxBuffer: 64 * 1024 * 1024,
      });
    api = `http://127.0.0.1:${ports.HOSTNET_API_PORT}`;
    elasticsearch = `http://127.0.0.1:${ports.HOSTNET_ELASTICSEARCH_PORT}`;
    web = await serveDemoWeb(['gazette'], { articles: 40 });
    await compose('up', '--detach', '--no-build');
  });

  after(async () => {
    const logs = await compose?.('logs', '--no-color', '--tail', '30').catch((error: Error) => ({ stdout: String(error) }));
    await compose?.('down', '--volumes', '--timeout', '30');
    await web?.close();
    if (process.exitCode) console.error(logs?.stdout);
  });

  const call = async (method: string, path: string, token: string, body?: unknown) => {
    const response = await fetch(`${api}${path}`, {
      method,
      headers: { authorization: `Bearer ${token.split(':')[1]}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  test('every service is healthy: the API and each worker answer /ready', async () => {
    await until('the API is ready', async () => ((await fetch(`${api}/ready`)).ok ? true : undefined));
    for (const worker of ['CRAWLER', 'TEMPLATER', 'EXTRACTOR', 'INDEXER']) {
      const ready = await until(`the ${worker.toLowerCase()} is ready`, async () => {
        const response = await fetch(`http://127.0.0.1:${ports[`HOSTNET_${worker}_WORKER_PORT`]}/ready`);
        return response.ok ? ((await response.json()) as { checks: Record<string, string> }) : undefined;
      });
      assert.deepEqual(ready.checks, { database: 'ok', redis: 'ok', search: 'ok' });
    }
  });

  test('a site added and crawled through the API is in Elasticsearch: an exact phrase of an article finds it', async () => {
    const site = web.sites[0];
    assert.ok(site);
    const added = await call('POST', '/sites', operate, { name: 'gazette', seeds: [`${site.origin}/`], allowPrivateAddresses: true, templateEveryMs: 0 });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    assert.equal((await call('POST', '/sites/gazette/crawl', operate, {})).status, 202);
    const crawl = await until('the crawl finishes', async () => {
      const state = (await call('GET', '/sites/gazette/crawl', operate)).body.crawl as { state: string; counts: { stored: number } } | null;
      return state?.state === 'finished' ? state : undefined;
    });
    assert.equal(crawl.counts.stored, site.pages.length, 'every page of the site stored');
    await until('the pipeline is idle', async () => ((await call('GET', '/status/idle', operate)).body.idle === true ? true : undefined));

    // Eight words from the middle of an article's longest paragraph, asked of Elasticsearch itself.
    const [url, gold] = [...site.goldByUrl].find(([, text]) => text.split('\n').some((line) => line.split(' ').length > 30)) ?? [];
    assert.ok(url && gold);
    const words = gold
      .split('\n')
      .sort((a, b) => b.length - a.length)[0]
      ?.split(' ')
      .slice(10, 18)
      .join(' ')
      .replaceAll('"', ''); // a quotation mark in the text would end the query's quoted phrase
    await fetch(`${elasticsearch}/winnow-pages/_refresh`, { method: 'POST' });
    const found = (await (
      await fetch(`${elasticsearch}/winnow-pages/_search`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: { match_phrase: { main_text: words } }, _source: ['url'], size: 100 }),
      })
    ).json()) as { hits: { hits: { _source: { url: string } }[] } };
    const urls = found.hits.hits.map((hit) => hit._source.url);
    assert.ok(urls.includes(url), `"${words}" finds ${url} in Elasticsearch (found: ${urls.join(', ')})`);

    const searched = await call('GET', `/search?q=${encodeURIComponent(`"${words}"`)}`, search);
    assert.equal(searched.status, 200, JSON.stringify(searched.body));
    assert.ok(
      (searched.body.hits as { url: string }[]).some((hit) => hit.url === url),
      'and the API finds it too, with a search token',
    );

    // The crawler's own port serves its metrics, counting what it stored.
    const metrics = await (await fetch(`http://127.0.0.1:${ports.HOSTNET_CRAWLER_WORKER_PORT}/metrics`)).text();
    const stored = metrics
      .split('\n')
      .filter((line) => line.startsWith('winnow_fetches_total{') && line.includes('outcome="stored"'))
      .reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0);
    assert.equal(stored, site.pages.length, "the crawler's /metrics counts every page it stored");

    // Every fetch went to the object store's WARC files (or waits in Postgres for the next one).
    const archive = (await call('GET', '/status', operate)).body.archive as { records: number; staged: number } | null;
    assert.ok(archive, 'the services keep bodies in the S3 store');
    assert.ok(archive.records + archive.staged >= site.pages.length, `every fetch is archived or staged: ${JSON.stringify(archive)}`);
    const warc = await fetch(`${api}/sites/gazette/export?format=warc`, { headers: { authorization: `Bearer ${operate}` } });
    assert.equal(warc.status, 200);
    const records = gunzipSync(Buffer.from(await warc.arrayBuffer())).toString('latin1');
    assert.ok(records.includes(`WARC-Target-URI: ${url}`), "the site's WARC export holds the article");
  });
});

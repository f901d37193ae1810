import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { after, before, test } from 'node:test';
import { type EmbeddedCli, embeddedCli } from './testing/embeddedCli.js';
import { closeServer, listenOnLoopback } from '@winnow/demo-corpus';

let server: Server;
let origin: string;
let winnow: EmbeddedCli['winnow'];

before(async () => {
  const noise = randomBytes(200 * 1024);
  server = createServer((request, response) => {
    if (request.url === '/noise') return void response.writeHead(200, { 'content-type': 'text/html' }).end(noise);
    if (request.url !== '/') return void response.writeHead(404).end();
    const article = '<p>The harbour master opened the lock gates at dawn, as every morning of the season.</p>';
    response.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body><a href="/noise">noise</a><article>${article}</article></body></html>`);
  });
  origin = await listenOnLoopback(server);
  ({ winnow } = await embeddedCli('binary'));
});
after(async () => {
  await closeServer(server);
});

test('random bytes served as text/html are refused once, with the reason in the crawl log, and never indexed', async () => {
  await winnow('sites', 'add', 'tide', '--seed', `${origin}/`, '--allow-private', '--template-every-ms', '0');
  await winnow('crawl', 'tide');
  const log = JSON.parse((await winnow('crawl-log', 'tide', '--json')).stdout);
  assert.deepEqual(
    log.entries.map((entry: { url: string; outcome: string; attempts: number }) => [entry.url, entry.outcome, entry.attempts]),
    [[`${origin}/noise`, 'refused', 1]],
  );
  assert.match(log.entries[0].reason, /^the page is binary data, not an HTML document: \d+% of its first characters are control characters$/);
  const status = JSON.parse((await winnow('status', '--json')).stdout).sites[0];
  assert.deepEqual([status.stored, status.crawl.counts.refused], [1, 1], 'only the home page was stored');
  const search = async (query: string) =>
    JSON.parse((await winnow('search', query, '--site', 'tide', '--json')).stdout).hits.map((hit: { url: string }) => hit.url);
  assert.deepEqual(await search('harbour'), [`${origin}/`], 'the site is indexed');
  assert.deepEqual(await search('Ã'), [], 'the noise is not (windows-1252 reads 0xC3 as Ã)');
});

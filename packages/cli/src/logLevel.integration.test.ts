import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { freePort } from '@winnow/queue/testing';
import { CLI_MAIN, embeddedEnv } from './testing/embeddedCli.js';
import { closeServer, listenOnLoopback } from '@winnow/demo-corpus';

const page = (title: string, links: string) =>
  `<!DOCTYPE html><html><head><title>${title}</title></head><body><main><h1>${title}</h1><p>The ferry to ${title} leaves the harbour at dawn, and the tide decides whether it comes back before the lighthouse is lit.</p>${links}</main></body></html>`;

/** A home page linking three articles on 127.0.0.1. */
function smallSite(): Server {
  return createServer((request, response) => {
    const titles: Record<string, string> = { '/': 'Home', '/a.html': 'Alderney', '/b.html': 'Bryher', '/c.html': 'Colonsay' };
    const title = titles[request.url ?? ''];
    if (!title) return void response.writeHead(404).end();
    const links = request.url === '/' ? '<a href="/a.html">A</a> <a href="/b.html">B</a> <a href="/c.html">C</a>' : '';
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(title, links));
  });
}

/**
 * Runs `winnow up` (the embedded default) with `level` as WINNOW_LOG_LEVEL (unset: the default),
 * crawls the small site through its API until the crawl has finished, stops it, and returns what
 * it wrote on stderr (once `waitFor` is in it, when given): its log, one JSON object a line, and its plain "winnow is up" line.
 */
async function crawlUnderUp(
  origin: string,
  level: string | undefined,
  waitFor?: string,
): Promise<{ logged: { level: number; msg: string }[]; stderr: string }> {
  const port = await freePort();
  const token = randomBytes(24).toString('hex');
  // One activity interval for the whole run: a slow start would otherwise split the crawl's counts over two lines.
  const { WINNOW_LOG_LEVEL: _, ...env } = await embeddedEnv('log-level', {
    WINNOW_API_PORT: String(port),
    WINNOW_API_TOKEN: token,
    WINNOW_LOG_INTERVAL_MS: '3600000',
  });
  const up = spawn(process.execPath, [CLI_MAIN, 'up'], {
    env: level === undefined ? env : { ...env, WINNOW_LOG_LEVEL: level },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  up.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) => up.once('exit', resolve));
  const api = `http://127.0.0.1:${port}`;
  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${api}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
  try {
    // A wait bounded by the loop's length, not a verdict: `winnow is up` is written once everything has started.
    for (let i = 0; i < 1200 && !stderr.includes('winnow is up:'); i++) {
      assert.equal(up.exitCode, null, stderr);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.match(stderr, /winnow is up:/);
    assert.equal((await call('POST', '/sites', { name: 'island', seeds: [`${origin}/`], allowPrivateAddresses: true })).status, 201);
    assert.equal((await call('POST', '/sites/island/crawl')).status, 202);
    let state = '';
    for (let i = 0; i < 1200 && state !== 'finished'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      state = ((await (await call('GET', '/sites/island/crawl')).json()) as { crawl: { state: string } | null }).crawl?.state ?? '';
    }
    assert.equal(state, 'finished');
    // The preparation the crawl's end asked for runs after it: its line is waited for (bounded), not raced by the stop.
    for (let i = 0; i < 1200 && waitFor !== undefined && !stderr.includes(waitFor); i++) await new Promise((resolve) => setTimeout(resolve, 100));
  } finally {
    up.kill('SIGTERM');
  }
  assert.equal(await exited, 0, stderr);
  const logged = stderr
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { level: number; msg: string });
  return { logged, stderr };
}

describe('what a running winnow logs', () => {
  let server: Server;
  let origin: string;
  before(async () => {
    server = smallSite();
    origin = await listenOnLoopback(server);
  });
  after(async () => {
    await closeServer(server);
  });

  test("winnow up logs at info by default: the API's address, the crawl's start and end with its counts, the templates prepared and why, the activity", async () => {
    const { logged, stderr } = await crawlUnderUp(origin, undefined, 'templates of island prepared');
    const info = logged.filter((line) => line.level === 30).map((line) => line.msg);
    assert.ok(
      info.some((msg) => msg.startsWith('api listening')),
      stderr,
    );
    assert.match(stderr, /^winnow is up: API on http:\/\/127\.0\.0\.1:\d+ \(metrics on \S+\/metrics, console on \S+\/console\/\)/m);
    assert.doesNotMatch(stderr, /no operate token/, 'its token is an operate token');
    assert.ok(
      info.some((msg) => /^crawl \d+ of island started from 1 URL$/.test(msg)),
      stderr,
    );
    assert.ok(
      info.some((msg) => /^crawl \d+ of island finished after [\d.]+ s: 4 stored/.test(msg)),
      stderr,
    );
    assert.ok(
      info.some((msg) => /^templates of island prepared \(a crawl finished\): /.test(msg)),
      'the preparation the crawl asked for, with why',
    );
    assert.ok(
      info.some((msg) => /^in the last \d+ s: visited 4 URLs \(4 stored\)/.test(msg)),
      "the workers' activity, one line for the interval (written at the latest when it stops)",
    );
  });

  test('WINNOW_LOG_LEVEL=warn quietens it: the same crawl, not one line below warn', async () => {
    const { logged, stderr } = await crawlUnderUp(origin, 'warn');
    assert.match(stderr, /winnow is up:/, 'the plain line that says where the API is stays');
    assert.deepEqual(
      logged.filter((line) => line.level < 40).map((line) => line.msg),
      [],
    );
  });
});

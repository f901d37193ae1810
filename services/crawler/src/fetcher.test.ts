import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { brotliCompressSync, constants, createGzip, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { FetchError, Fetcher } from './fetcher.js';
import { closeServer, listenOnLoopback } from '@winnow/demo-corpus';

const USER_AGENT = 'WinnowBot/0.1 (+https://winnow.test/bot)';

interface Listening {
  server: Server;
  port: number;
  requests: { url: string; headers: IncomingHttpHeaders }[];
}

async function listen(handler?: Parameters<typeof createServer>[1]): Promise<Listening> {
  const requests: Listening['requests'] = [];
  const server = createServer((request, response) => {
    requests.push({ url: request.url ?? '', headers: request.headers });
    handler?.(request, response);
  });
  await listenOnLoopback(server);
  return { server, port: (server.address() as AddressInfo).port, requests };
}

async function close(listening: Listening): Promise<void> {
  await closeServer(listening.server);
}

const PAGE = Buffer.from(`<html><body>${'<p>The harbour at dawn.</p>'.repeat(50)}</body></html>`);

const isFetchError = (code: string, message: RegExp) => (error: unknown) => error instanceof FetchError && error.code === code && message.test(error.message);

describe('the fetcher', () => {
  let site: Listening;
  let canary: Listening;
  const options = {
    userAgent: USER_AGENT,
    maxBytes: 64 * 1024,
    // The tests assert on bytes: a timeout well past what any of them takes on a busy machine (a
    // limit of 1 s failed the bomb tests whenever the other suites ran beside them).
    timeoutMs: 60_000,
    // A name the system cannot resolve, mapped the way a hostile DNS server would answer.
    resolve: async (hostname: string) => ({ 'canary.test': ['127.0.0.1'], 'meta.test': ['169.254.169.254'], 'mixed.test': ['127.0.0.1'] })[hostname] ?? [],
  };
  const fetcher = new Fetcher(options);
  /** For the timeout's message: `/silent` never answers, so its verdict does not depend on how busy the machine is. */
  const impatient = new Fetcher({ ...options, timeoutMs: 1000 });

  before(async () => {
    canary = await listen((_request, response) => response.end('canary reached'));
    site = await listen((request, response) => {
      switch (request.url) {
        case '/page':
          return void response.writeHead(200, { 'content-type': 'text/html', etag: '"v1"' }).end('<p>hello</p>');
        case '/redirect':
          return void response.writeHead(302, { location: `http://127.0.0.1:${canary.port}/` }).end();
        case '/bomb': {
          response.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
          const gzip = createGzip({ level: constants.Z_BEST_COMPRESSION });
          gzip.pipe(response);
          const zeros = Buffer.alloc(1024 * 1024);
          let written = 0;
          const pump = () => {
            while (written < 400 && gzip.write(zeros)) written++;
            if (written < 400) gzip.once('drain', pump);
            else gzip.end();
          };
          pump();
          return;
        }
        case '/endless': {
          response.writeHead(200, { 'content-type': 'text/html' });
          const timer = setInterval(() => response.write('x'.repeat(8192)), 1);
          response.on('close', () => clearInterval(timer));
          return;
        }
        case '/gzip-identity':
          return void response.writeHead(200, { 'content-encoding': 'gzip, identity' }).end(gzipSync(PAGE));
        case '/gzip-gzip':
          return void response.writeHead(200, { 'content-encoding': 'GZIP ,gzip' }).end(gzipSync(gzipSync(PAGE)));
        case '/deflate-br':
          return void response.writeHead(200, { 'content-encoding': 'deflate, br' }).end(brotliCompressSync(deflateSync(PAGE)));
        case '/raw-deflate':
          return void response.writeHead(200, { 'content-encoding': 'deflate' }).end(deflateRawSync(PAGE));
        case '/zstd':
          return void response.writeHead(200, { 'content-encoding': 'zstd' }).end(Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 1, 2, 3]));
        case '/constructor':
          return void response.writeHead(200, { 'content-encoding': 'constructor' }).end(PAGE);
        case '/mislabeled':
          return void response.writeHead(200, { 'content-encoding': 'gzip' }).end(brotliCompressSync(PAGE));
        case '/layered-bomb':
          return void response
            .writeHead(200, { 'content-encoding': 'gzip, gzip' })
            .end(gzipSync(gzipSync(Buffer.alloc(50 * 1024 * 1024), { level: 9 }), { level: 9 }));
        case '/silent':
          return; // answered never: the connection is closed when the tests end
        default:
          return void response.writeHead(404).end();
      }
    });
  });
  after(async () => {
    await Promise.all([fetcher.close(), impatient.close()]);
    await close(site);
    await close(canary);
  });

  test("fetches a page with the configured User-Agent and the caller's conditional headers", async () => {
    const response = await fetcher.fetch({ url: `http://127.0.0.1:${site.port}/page`, allowPrivate: true, headers: { 'if-none-match': '"v0"' } });
    assert.equal(response.status, 200);
    assert.equal(response.body.toString(), '<p>hello</p>');
    assert.equal(response.headers.etag, '"v1"');
    const seen = site.requests.at(-1);
    assert.equal(seen?.headers['user-agent'], USER_AGENT);
    assert.equal(seen?.headers['if-none-match'], '"v0"');
  });

  test('refuses private and metadata addresses, literal or resolved, without connecting', async () => {
    await assert.rejects(
      fetcher.fetch({ url: `http://127.0.0.1:${canary.port}/admin`, allowPrivate: false }),
      isFetchError('refused', /127\.0\.0\.1 is a private address/),
    );
    await assert.rejects(
      fetcher.fetch({ url: `http://canary.test:${canary.port}/admin`, allowPrivate: false }),
      isFetchError('refused', /canary\.test resolves to .*127\.0\.0\.1 is a private address/),
    );
    await assert.rejects(fetcher.fetch({ url: 'http://meta.test/latest/meta-data/', allowPrivate: true }), isFetchError('refused', /cloud metadata/));
    await assert.rejects(fetcher.fetch({ url: 'http://169.254.169.254/latest/', allowPrivate: true }), isFetchError('refused', /cloud metadata/));
    await assert.rejects(fetcher.fetch({ url: `http://localhost:${canary.port}/`, allowPrivate: false }), isFetchError('refused', /this machine/));
    assert.equal(canary.requests.length, 0, 'the canary server was never reached');
  });

  test('connects to the address its own lookup judged, not to what another resolver might say later', async () => {
    const response = await fetcher.fetch({ url: `http://mixed.test:${canary.port}/`, allowPrivate: true });
    assert.equal(response.body.toString(), 'canary reached', 'mixed.test is unknown to the system resolver: only the judged answer was used');
    canary.requests.length = 0;
  });

  test('returns a redirect without following it', async () => {
    const response = await fetcher.fetch({ url: `http://127.0.0.1:${site.port}/redirect`, allowPrivate: true });
    assert.equal(response.status, 302);
    assert.equal(response.headers.location, `http://127.0.0.1:${canary.port}/`);
    assert.equal(canary.requests.length, 0);
  });

  test('a gzip bomb and an endless body are cut off at the byte limit with bounded memory', async () => {
    const before = process.memoryUsage().rss;
    await assert.rejects(
      fetcher.fetch({ url: `http://127.0.0.1:${site.port}/bomb`, allowPrivate: true }),
      isFetchError('too-large', /larger than the limit of 65536 bytes/),
    );
    await assert.rejects(
      fetcher.fetch({ url: `http://127.0.0.1:${site.port}/endless`, allowPrivate: true }),
      isFetchError('too-large', /larger than the limit/),
    );
    const grown = (process.memoryUsage().rss - before) / 1024 / 1024;
    assert.ok(grown < 100, `RSS grew by ${grown.toFixed(0)} MiB for a 400 MiB bomb`);
  });

  test('undoes every listed content coding, last applied first, and ignores identity', async () => {
    for (const path of ['/gzip-identity', '/gzip-gzip', '/deflate-br']) {
      const { body } = await fetcher.fetch({ url: `http://127.0.0.1:${site.port}${path}`, allowPrivate: true });
      assert.deepEqual(body, PAGE, path);
    }
  });

  test('reads raw deflate sent as deflate, as browsers do', async () => {
    const { body } = await fetcher.fetch({ url: `http://127.0.0.1:${site.port}/raw-deflate`, allowPrivate: true });
    assert.deepEqual(body, PAGE);
  });

  test('refuses a coding it cannot undo by name, and a body that is not what its coding says', async () => {
    await assert.rejects(
      fetcher.fetch({ url: `http://127.0.0.1:${site.port}/zstd`, allowPrivate: true }),
      isFetchError('bad-response', /^unsupported content-encoding zstd$/),
    );
    await assert.rejects(
      fetcher.fetch({ url: `http://127.0.0.1:${site.port}/constructor`, allowPrivate: true }),
      isFetchError('bad-response', /^unsupported content-encoding constructor$/),
    );
    await assert.rejects(
      fetcher.fetch({ url: `http://127.0.0.1:${site.port}/mislabeled`, allowPrivate: true }),
      isFetchError('bad-response', /could not be decompressed/),
    );
  });

  test('every layer of a layered coding is cut off at the byte limit', async () => {
    await assert.rejects(
      fetcher.fetch({ url: `http://127.0.0.1:${site.port}/layered-bomb`, allowPrivate: true }),
      isFetchError('too-large', /larger than the limit of 65536 bytes/),
    );
  });

  test('says what went wrong in words: a timeout, a refused connection, an unknown host', async () => {
    await assert.rejects(
      impatient.fetch({ url: `http://127.0.0.1:${site.port}/silent`, allowPrivate: true }),
      isFetchError('timeout', /no complete response within 1 s|timed out/),
    );
    const closed = await listen();
    await close(closed);
    await assert.rejects(fetcher.fetch({ url: `http://127.0.0.1:${closed.port}/`, allowPrivate: true }), isFetchError('unreachable', /^connection refused$/));
    await assert.rejects(fetcher.fetch({ url: 'http://nowhere.test/', allowPrivate: true }), isFetchError('refused', /nowhere\.test has no address/));
    await assert.rejects(fetcher.fetch({ url: 'ftp://127.0.0.1/', allowPrivate: true }), isFetchError('refused', /ftp: URLs are not fetched/));
  });
});

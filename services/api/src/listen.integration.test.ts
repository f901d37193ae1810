import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { loadEnv } from '@winnow/config';
import { openRuntime, type Runtime } from '@winnow/runtime';
import { startApi, type ApiService } from './index.js';

/** A GET over a real socket with a `Host` header of our choosing (fetch does not let one set it). */
function get(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { headers }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    outgoing.once('error', reject);
    outgoing.end();
  });
}

/** Sends raw bytes and reads the raw answer until the server closes the connection. */
function rawExchange(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.once('close', () => resolve(answer));
    socket.once('error', reject);
  });
}

describe('the API on a real port', () => {
  let rt: Runtime;
  before(async () => {
    rt = await openRuntime(loadEnv({ WINNOW_DATA_DIR: 'memory', WINNOW_LOG_LEVEL: 'silent' }));
  });
  after(async () => {
    await rt.close();
  });

  test('refuses to listen on a non-loopback address without a token, naming WINNOW_API_HOST and WINNOW_API_TOKEN', async () => {
    for (const host of ['0.0.0.0', '::']) {
      const outcome = await startApi(rt, 0, host).then(
        async (api) => {
          await api.close();
          return 'listened';
        },
        (error: Error) => error,
      );
      assert.ok(outcome instanceof Error, `listened on ${host} without a token`);
      assert.match(outcome.message, /refusing to serve the API on .* without a token: WINNOW_API_HOST .* WINNOW_API_TOKEN/);
    }
    for (const host of ['127.0.0.1', 'localhost']) {
      const api = await startApi(rt, 0, host);
      await api.close();
    }
  });

  test('checks the Host header against the port it really listens on', async () => {
    const token = randomBytes(24).toString('hex');
    const secured: Runtime = { ...rt, env: { ...rt.env, WINNOW_API_TOKEN: [{ scope: 'operate', token }] } };
    let api: ApiService | undefined;
    try {
      api = await startApi(secured, 0, '127.0.0.1');
      const port = Number(new URL(api.url).port);
      const status = (host: string) => get(`${api?.url}/status`, { host, authorization: `Bearer ${token}` });
      assert.equal((await status(`127.0.0.1:${port}`)).status, 200);
      assert.equal((await status(`localhost:${port}`)).status, 200);
      const rebound = await status(`rebound.example:${port}`);
      assert.equal(rebound.status, 421);
      assert.match(JSON.parse(rebound.body).error, /is not this API's address/);
      assert.equal((await status(`localhost:${port === 65535 ? 1 : port + 1}`)).status, 421, 'another port is another authority');
      assert.equal((await get(`${api.url}/health`, { host: 'rebound.example' })).status, 200, 'probes come by pod IP');
    } finally {
      await api?.close();
    }
  });

  test("requests Node's HTTP parser refuses are answered in the API's error format", async () => {
    const api = await startApi(rt, 0, '127.0.0.1');
    try {
      const port = Number(new URL(api.url).port);
      const longUrl = await rawExchange(port, `GET /search?q=${'x'.repeat(20_000)} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
      assert.match(longUrl, /^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
      assert.deepEqual(JSON.parse(longUrl.split('\r\n\r\n')[1] ?? ''), { error: 'the URL and headers are larger than 16384 bytes', code: 'headers-too-large' });
      const garbage = await rawExchange(port, 'NOT HTTP AT ALL\r\n\r\n');
      assert.match(garbage, /^HTTP\/1\.1 400 Bad Request\r\n/);
      assert.deepEqual(JSON.parse(garbage.split('\r\n\r\n')[1] ?? ''), { error: 'the request is not valid HTTP', code: 'request-malformed' });
    } finally {
      await api.close();
    }
  });
});

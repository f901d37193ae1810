import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { closeServer, listenOnLoopback } from './loopback.js';

test('a server is bound to 127.0.0.1 alone, and closing it ends the connection a client keeps alive', async () => {
  const server = createServer((_request, response) => void response.writeHead(200, { 'content-type': 'text/plain' }).end('tide'));
  const origin = await listenOnLoopback(server);
  assert.equal((server.address() as AddressInfo).address, '127.0.0.1');
  assert.equal(origin, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  // Node's fetch keeps its connection open for the next request: without closing it, close() would wait for it.
  assert.equal(await (await fetch(origin)).text(), 'tide');
  await closeServer(server);
  assert.equal(server.listening, false);
  await assert.rejects(fetch(origin), /fetch failed/);
});

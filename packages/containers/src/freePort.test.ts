import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { test } from 'node:test';
import { freePort } from './freePort.js';

test('a free port lies below the ephemeral range, where no outgoing connection is given it, and can be listened on', async () => {
  const [ephemeralLow] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
  for (let i = 0; i < 20; i++) {
    const port = await freePort();
    assert.ok(port >= 10_000 && port < (ephemeralLow ?? 32_768), `port ${port}`);
    const server = createServer();
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
    await new Promise((resolve) => server.close(resolve));
  }
});

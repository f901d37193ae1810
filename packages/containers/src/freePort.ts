import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * A free TCP port on 127.0.0.1 below the kernel's ephemeral range, for a test server that may be
 * stopped and started again on the same port. A port the kernel hands out for listening (port 0)
 * lies in the range it also gives outgoing connections: a client that keeps reconnecting to a
 * stopped server there can be given that very port and connect to itself (TCP simultaneous open),
 * and the server then cannot listen again (a test that restarted its Redis hung that way).
 */
export async function freePort(): Promise<number> {
  const [ephemeralLow] = ephemeralRange();
  const low = 10_000;
  const high = Math.max(low + 1_000, ephemeralLow);
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = low + Math.floor(Math.random() * (high - low));
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port on 127.0.0.1 between ${low} and ${high} after 100 tries`);
}

function ephemeralRange(): [number, number] {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (low && high) return [low, high];
  } catch {
    // Not Linux: the IANA range, which other kernels use.
  }
  return [49_152, 65_535];
}

async function canListen(port: number): Promise<boolean> {
  const server = createServer();
  const listening = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => resolve(true));
  });
  if (listening) await new Promise((resolve) => server.close(resolve));
  return listening;
}

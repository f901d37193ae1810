import type { Server as HttpServer } from 'node:http';
import type { AddressInfo, Server } from 'node:net';

/**
 * Starts `server` on 127.0.0.1, on a port the kernel picks, and returns its origin
 * (`http://127.0.0.1:40123`): how the demo's and the replay's sites, and the tests' local sites,
 * are served. Only the loopback address is bound, so nothing beyond this machine can reach them.
 */
export async function listenOnLoopback(server: Server): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Stops `server`, its open keep-alive connections too (a crawler's agent may hold some). */
export async function closeServer(server: HttpServer): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

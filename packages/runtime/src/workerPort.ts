import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readiness } from './health.js';
import type { Runtime } from './runtime.js';

/** A worker process's own HTTP port, listening. */
export interface WorkerPort {
  /** Its base address, e.g. `http://127.0.0.1:8081`. */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * The one port a worker process without the API serves (`WINNOW_WORKER_PORT` on
 * `WINNOW_WORKER_HOST`): `GET /health` while the process runs and `GET /ready` while its engines
 * answer, for container health checks and Kubernetes probes, and `GET /metrics` for Prometheus.
 * The API answers the same three routes on its own port. One port rather than one per concern, so
 * that a container, a probe and a scrape configuration name one address. Nothing else is served:
 * other paths are 404 and other methods 405, in the API's error shape. A node:http server rather
 * than a second Fastify: it has three fixed routes and no input.
 */
export async function startWorkerPort(rt: Runtime, host: string, port: number): Promise<WorkerPort> {
  const server = createServer((request, response) => {
    const reply = (status: number, contentType: string, body: string, headers: Record<string, string> = {}) =>
      void response.writeHead(status, { 'content-type': contentType, ...headers }).end(request.method === 'HEAD' ? undefined : body);
    const json = (status: number, body: unknown, headers?: Record<string, string>) =>
      reply(status, 'application/json; charset=utf-8', JSON.stringify(body), headers);
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (path !== '/health' && path !== '/ready' && path !== '/metrics')
      return json(404, { error: `no route ${request.method} ${path.slice(0, 200)}: this port serves GET /health, /ready and /metrics`, code: 'route-unknown' });
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return json(405, { error: `${request.method} ${path} is not allowed: use GET`, code: 'method-not-allowed' }, { allow: 'GET, HEAD' });
    if (path === '/health') return json(200, { status: 'ok' });
    if (path === '/ready') {
      void readiness(rt).then(({ ready, checks }) => json(ready ? 200 : 503, { status: ready ? 'ready' : 'not ready', checks }));
      return;
    }
    rt.metrics.text().then(
      (text) => reply(200, rt.metrics.contentType, text),
      (error: unknown) => {
        rt.log.error({ err: error }, 'the metrics could not be collected');
        json(500, { error: 'internal error', code: 'internal' });
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = server.address() as AddressInfo;
  return {
    url: `http://${bound.family === 'IPv6' ? `[${bound.address}]` : bound.address}:${bound.port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

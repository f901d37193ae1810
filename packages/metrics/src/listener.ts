import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PipelineMetrics } from './metrics.js';

/** A worker's metrics endpoint, listening. */
export interface MetricsListener {
  /** Where Prometheus scrapes it, e.g. `http://127.0.0.1:9464/metrics`. */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Serves `GET /metrics` of a worker process that has no API (`WINNOW_METRICS_PORT`), on the
 * address it is given: 127.0.0.1 unless the operator configured another (`WINNOW_METRICS_HOST`).
 * Nothing else is answered: any other path is a 404 and any other method a 405, in the API's
 * error shape. A node:http server of a few lines rather than a second Fastify: it has one route.
 */
export async function listenForMetrics(metrics: PipelineMetrics, host: string, port: number): Promise<MetricsListener> {
  const server: Server = createServer((request, response) => {
    const refuse = (status: number, code: string, error: string, headers: Record<string, string> = {}) =>
      void response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers }).end(JSON.stringify({ error, code }));
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (path !== '/metrics') return refuse(404, 'route-unknown', `no route ${request.method} ${path.slice(0, 200)}: this listener serves GET /metrics`);
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return refuse(405, 'method-not-allowed', `${request.method} /metrics is not allowed: use GET`, { allow: 'GET, HEAD' });
    metrics.text().then(
      (text) => void response.writeHead(200, { 'content-type': metrics.contentType }).end(request.method === 'HEAD' ? undefined : text),
      () => refuse(500, 'internal', 'internal error'),
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
  const shown = bound.family === 'IPv6' ? `[${bound.address}]` : bound.address;
  return {
    url: `http://${shown}:${bound.port}/metrics`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

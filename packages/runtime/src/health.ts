import { createServer } from 'node:http';
import type { Runtime } from './runtime.js';

export interface Readiness {
  ready: boolean;
  /** `ok` or `failed` per engine; the reasons (host names, addresses) go to the log, not to whoever asked. */
  checks: Record<'database' | 'redis' | 'search', 'ok' | 'failed'>;
}

/** Whether the database, Redis and the search index each answer within 2 s: what `/ready` reports, in the API and in every worker. */
export async function readiness(rt: Runtime): Promise<Readiness> {
  const check = async (name: keyof Readiness['checks'], probe: () => Promise<unknown>): Promise<'ok' | 'failed'> => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error('no answer within 2 s')), 2000);
    });
    try {
      await Promise.race([probe(), timeout]);
      return 'ok';
    } catch (error) {
      rt.log.warn({ check: name, err: error }, 'readiness check failed');
      return 'failed';
    } finally {
      clearTimeout(timer);
    }
  };
  const checks = {
    database: await check('database', () => rt.db.query('SELECT 1')),
    redis: await check('redis', () => rt.queues.queue('crawl').getJobCounts('waiting')),
    search: await check('search', () => rt.search.count()),
  };
  return { ready: Object.values(checks).every((value) => value === 'ok'), checks };
}

/**
 * A worker's probe port (`WINNOW_HEALTH_PORT` on `WINNOW_HEALTH_HOST`), for container health
 * checks and Kubernetes probes: `GET /health` answers 200 while the process runs, `GET /ready`
 * 200 when `readiness` holds and 503 when it does not, as the API's routes of the same names.
 * Nothing else is served.
 */
export async function startHealthServer(rt: Runtime, host: string, port: number): Promise<{ port: number; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    const reply = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
      response.end(JSON.stringify(body));
    };
    const path = request.url?.split('?')[0];
    if (request.method !== 'GET' && request.method !== 'HEAD') return reply(405, { error: `${request.method} is not allowed here` });
    if (path === '/health') return reply(200, { status: 'ok' });
    if (path === '/ready') {
      void readiness(rt).then(({ ready, checks }) => reply(ready ? 200 : 503, { status: ready ? 'ready' : 'not ready', checks }));
      return;
    }
    reply(404, { error: `no route ${request.method} ${path}` });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}

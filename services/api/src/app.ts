import {
  addSite,
  crawlStatus,
  listSites,
  pipelineStatus,
  removeSite,
  replaceSite,
  requestTemplates,
  requireSite,
  search,
  startCrawl,
  stopCrawl,
  type Runtime,
} from '@winnow/runtime';
import { listTemplates } from '@winnow/storage';
import Fastify, { type FastifyInstance } from 'fastify';

/** Errors the operations throw for bad requests, by name, and the HTTP status each answers. */
const STATUS_BY_ERROR: Record<string, number> = {
  SiteConfigError: 400,
  QueryError: 400,
  InvalidRequestError: 400,
  SiteNotFoundError: 404,
  SiteExistsError: 409,
  CrawlActiveError: 409,
};

/** Query-string integers: absent stays undefined, anything else must be digits. */
function integerParam(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^\d{1,6}$/.test(value)) throw Object.assign(new Error(`${name} must be a positive integer`), { name: 'InvalidRequestError' });
  return Number(value);
}

function stringParam(value: unknown, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw Object.assign(new Error(`${name} must be given once`), { name: 'InvalidRequestError' });
  return value;
}

/**
 * The HTTP API (Fastify). Operators: `/sites` CRUD, `/sites/:name/crawl` start, stop and status,
 * `/sites/:name/templates` prepare, `/templates` list, `/status`. The search engine: `/search?q=`
 * (a quoted phrase is an exact phrase; `site`, `page`, `size`). `/health` answers while the
 * process runs; `/ready` only when the database, Redis and the search index answer.
 */
export function buildApi(rt: Runtime): FastifyInstance {
  const app = Fastify({ logger: false, bodyLimit: 1024 * 1024 });

  app.setErrorHandler((error: Error & { statusCode?: number }, _request, reply) => {
    const status = STATUS_BY_ERROR[error.name] ?? (error.statusCode && error.statusCode < 500 ? error.statusCode : 500);
    if (status >= 500) rt.log.error({ err: error }, 'request failed');
    void reply.status(status).send({ error: status >= 500 ? 'internal error' : error.message });
  });

  app.get('/health', async () => ({ status: 'ok' }));
  app.get('/ready', async (_request, reply) => {
    const checks: Record<string, string> = {};
    const check = async (name: string, probe: () => Promise<unknown>) => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('no answer within 2 s')), 2000);
      });
      try {
        await Promise.race([probe(), timeout]);
        checks[name] = 'ok';
      } catch (error) {
        checks[name] = (error as Error).message;
      } finally {
        clearTimeout(timer);
      }
    };
    await check('database', () => rt.db.query('SELECT 1'));
    await check('redis', () => rt.queues.queue('crawl').getJobCounts('waiting'));
    await check('search', () => rt.search.count());
    const ready = Object.values(checks).every((value) => value === 'ok');
    return reply.status(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not ready', checks });
  });

  app.get('/sites', async () => ({ sites: await listSites(rt.db) }));
  app.post('/sites', async (request, reply) => reply.status(201).send({ site: await addSite(rt, request.body) }));
  app.get<{ Params: { name: string } }>('/sites/:name', async (request) => ({ site: await requireSite(rt, request.params.name) }));
  app.put<{ Params: { name: string } }>('/sites/:name', async (request) => ({ site: await replaceSite(rt, request.params.name, request.body) }));
  app.delete<{ Params: { name: string } }>('/sites/:name', async (request, reply) => {
    await removeSite(rt, request.params.name);
    return reply.status(204).send();
  });

  app.post<{ Params: { name: string } }>('/sites/:name/crawl', async (request, reply) => reply.status(202).send({ crawl: await startCrawl(rt, request.params.name) }));
  app.post<{ Params: { name: string } }>('/sites/:name/crawl/stop', async (request) => ({ crawl: (await stopCrawl(rt, request.params.name)) ?? null }));
  app.get<{ Params: { name: string } }>('/sites/:name/crawl', async (request) => ({ crawl: (await crawlStatus(rt, request.params.name)) ?? null }));

  app.post<{ Params: { name: string } }>('/sites/:name/templates', async (request, reply) => {
    const site = await requestTemplates(rt, request.params.name);
    return reply.status(202).send({ site: site.name, queued: true });
  });
  app.get<{ Querystring: Record<string, unknown> }>('/templates', async (request) => ({ templates: await listTemplates(rt.db, stringParam(request.query.site, 'site')) }));

  app.get<{ Querystring: Record<string, unknown> }>('/search', async (request) => {
    const { q, site, page, size } = request.query;
    return search(rt, { q: q ?? '', site: stringParam(site, 'site'), page: integerParam(page, 'page'), size: integerParam(size, 'size') });
  });

  app.get('/status', async () => pipelineStatus(rt));
  return app;
}

import { WinnowError } from '@winnow/config';
import {
  addSite,
  crawlLog,
  crawlStatus,
  exportFormat,
  exportSite,
  InvalidRequestError,
  isIdle,
  listSites,
  pageExtraction,
  pipelineStatus,
  removeSite,
  replaceSite,
  requestTemplates,
  requireSite,
  search,
  sitePages,
  siteTemplates,
  templateDiff,
  templateHealthHistory,
  templateJob,
  templateVersion,
  startCrawl,
  stopCrawl,
  updateSite,
  readiness,
  type Runtime,
} from '@winnow/runtime';
import { maxHeaderSize, STATUS_CODES } from 'node:http';
import { type Duplex, Readable } from 'node:stream';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { bearerGuard, type Access } from './auth.js';
import { JSON_MEDIA_TYPES, parseJsonBody, requireJsonBody } from './body.js';
import { RequestRefusedError, statusOf } from './errors.js';
import { hostGuard } from './hosts.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route; a route without it is `operate`. */
    access?: Access;
  }
}

/** Where the API is reached: the bind address and port the `Host` check accepts. */
export interface ApiAddress {
  host: string;
  port: number;
}

/**
 * A number given in the query: digits only, else NaN, which the operation refuses in the words it
 * uses for a number out of range (`size=abc` and `size=0` get one message, from one place).
 */
function integerParam(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new InvalidRequestError(`${name} must be given once`);
  return /^\d{1,6}$/.test(value) ? Number(value) : Number.NaN;
}

/** A filter given in the query: `true` or `false`, once; absent stays undefined. */
function booleanParam(value: unknown, name: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === 'true' || value === 'false') return value === 'true';
  throw new InvalidRequestError(typeof value === 'string' ? `${name} must be true or false` : `${name} must be given once`);
}

function stringParam(value: unknown, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new InvalidRequestError(`${name} must be given once`);
  return value;
}

/**
 * A query parameter the endpoint does not take is refused, naming those it takes: a misspelled
 * `sise=50` would otherwise be answered as if it were not there.
 */
function knownParams(query: Record<string, unknown>, names: readonly string[]): void {
  const unknown = Object.keys(query).filter((key) => !names.includes(key));
  if (unknown.length > 0) {
    const named = unknown.map((key) => `"${key}"`).join(', ');
    throw new InvalidRequestError(`unknown query parameter${unknown.length > 1 ? 's' : ''} ${named}: it takes ${names.length > 0 ? names.join(', ') : 'none'}`);
  }
}

/** An action that takes no settings refuses a body that names some (`{"force": true}` would do nothing). */
function noSettings(body: unknown): void {
  if (body !== undefined && body !== null && (typeof body !== 'object' || Object.keys(body).length > 0)) {
    throw new InvalidRequestError('this request takes no body (or an empty JSON object)');
  }
}

/**
 * Node's HTTP parser refuses some requests before Fastify sees them (a URL and headers over
 * `maxHeaderSize`, bytes that are not HTTP, a request that arrives too slowly); they get the API's
 * error format too, not Fastify's default body.
 */
function clientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
  const [status, message]: [number, string] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, `the URL and headers are larger than ${maxHeaderSize} bytes`]
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'the request did not arrive in time']
        : [400, 'the request is not valid HTTP'];
  const body = JSON.stringify({ error: message });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * The HTTP API (Fastify), built without listening. Operators (an `operate` token): `/sites` CRUD
 * (`PUT` replaces a site's configuration, `PATCH` changes some of its settings),
 * `/sites/:name/crawl` start, stop and status, `/sites/:name/crawl/log` the URLs not stored and
 * why (`outcome=refused,failed`, `crawl`, `page`, `size`), `/sites/:name/pages` its pages'
 * extractions (`readAlone`, `empty`, `warnings`: `true` or `false`; `pageType`, `page`, `size`) and
 * `/pages?url=` one page's in full (`site` when two sites crawled the URL), `/sites/:name/templates` prepare (a
 * job id) or list (as `/templates?site=`), `/sites/:name/templates/jobs/:id` that job's state and outcome,
 * `/sites/:name/templates/versions/:version` one version in full (`current`, `pageType`),
 * `/sites/:name/templates/diff` what changed between two (`from`, `to`, `pageType`),
 * `/sites/:name/templates/health` its page types' health over time (`since`, `page`, `size`), `/templates` list,
 * `/status`. The search engine (any token, or none while none is configured): `/search?q=` (a
 * quoted phrase is an exact phrase; `site`, `page`, `size`). Open: `/health` answers while the
 * process runs; `/ready` only when the database, Redis and the search index answer.
 *
 * Every request but the probes must name the API in its `Host` (DNS rebinding) and carry the
 * bearer token its route needs; every body must be JSON (cross-site form posts). No CORS headers
 * are sent and no preflight is answered, so browsers keep other origins' pages out.
 */
export function buildApi(rt: Runtime, address: ApiAddress = { host: rt.env.WINNOW_API_HOST, port: rt.env.WINNOW_API_PORT }): FastifyInstance {
  const app = Fastify({
    logger: false,
    bodyLimit: 1024 * 1024,
    // The router's own refusals (a bad percent-encoding, an overlong path parameter) answer in
    // the API's error format, without echoing the path back.
    frameworkErrors: (error: FastifyError, _request: FastifyRequest, reply: FastifyReply) => {
      if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') void reply.status(414).send({ error: 'a path parameter is too long' });
      else void reply.status(400).send({ error: 'the URL is not valid (a bad percent-encoding?)' });
    },
    clientErrorHandler: clientError,
  });
  const checkHost = hostGuard({
    bindHost: address.host,
    port: () => {
      const bound = app.server.address();
      return bound !== null && typeof bound === 'object' ? bound.port : address.port;
    },
    allowedHosts: rt.env.WINNOW_API_ALLOWED_HOSTS,
  });
  const checkToken = bearerGuard(rt.env.WINNOW_API_TOKEN);

  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config.access ?? 'operate';
    if (access !== 'probe') {
      checkHost(request.headers.host);
      checkToken(request.headers.authorization, access);
    }
    requireJsonBody(request.method, request.headers);
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(JSON_MEDIA_TYPES, { parseAs: 'string' }, async (_request: unknown, body: string) => parseJsonBody(body));

  app.setErrorHandler((error: Error & { statusCode?: number }, _request, reply) => {
    const status = statusOf(error);
    if (status >= 500) rt.log.error({ err: error }, 'request failed');
    if (error instanceof RequestRefusedError && error.challenge) void reply.header('www-authenticate', error.challenge);
    void reply.status(status).send({ error: status >= 500 ? 'internal error' : error.message });
  });

  app.setNotFoundHandler((request, reply) => reply.status(404).send({ error: `no route ${request.method} ${request.url.split('?')[0]}` }));

  const probe = { config: { access: 'probe' } } as const;
  const searchEngine = { config: { access: 'search' } } as const;

  app.get('/health', probe, async () => ({ status: 'ok' }));
  app.get('/ready', probe, async (_request, reply) => {
    const { ready, checks } = await readiness(rt);
    return reply.status(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not ready', checks });
  });

  app.get('/sites', async () => ({ sites: await listSites(rt.db) }));
  app.post('/sites', async (request, reply) => reply.status(201).send({ site: await addSite(rt, request.body) }));
  app.get<{ Params: { name: string } }>('/sites/:name', async (request) => ({ site: await requireSite(rt, request.params.name) }));
  app.put<{ Params: { name: string } }>('/sites/:name', async (request) => ({ site: await replaceSite(rt, request.params.name, request.body) }));
  /** A JSON merge patch (RFC 7396) of the site's configuration: the settings it names change, `null` resets one to its default. */
  app.patch<{ Params: { name: string } }>('/sites/:name', async (request) => ({ site: await updateSite(rt, request.params.name, request.body) }));
  app.delete<{ Params: { name: string } }>('/sites/:name', async (request, reply) => {
    await removeSite(rt, request.params.name);
    return reply.status(204).send();
  });

  app.post<{ Params: { name: string } }>('/sites/:name/crawl', async (request, reply) => {
    noSettings(request.body);
    return reply.status(202).send({ crawl: await startCrawl(rt, request.params.name) });
  });
  app.post<{ Params: { name: string } }>('/sites/:name/crawl/stop', async (request) => {
    noSettings(request.body);
    const crawl = await stopCrawl(rt, request.params.name);
    if (!crawl) throw new WinnowError('conflict', `no crawl of ${request.params.name} is queued or running`);
    return { crawl };
  });
  app.get<{ Params: { name: string }; Querystring: Record<string, unknown> }>('/sites/:name/crawl/log', async (request) => {
    knownParams(request.query, ['outcome', 'crawl', 'page', 'size']);
    const { outcome, crawl, page, size } = request.query;
    const outcomes = stringParam(outcome, 'outcome')
      ?.split(',')
      .map((name) => name.trim())
      .filter((name) => name !== '');
    return crawlLog(rt, request.params.name, {
      outcomes,
      crawl: integerParam(crawl, 'crawl'),
      page: integerParam(page, 'page'),
      size: integerParam(size, 'size'),
    });
  });
  app.get<{ Params: { name: string } }>('/sites/:name/crawl', async (request) => ({ crawl: (await crawlStatus(rt, request.params.name)) ?? null }));

  app.get<{ Params: { name: string }; Querystring: Record<string, unknown> }>('/sites/:name/pages', async (request) => {
    knownParams(request.query, ['readAlone', 'empty', 'warnings', 'pageType', 'page', 'size']);
    const { readAlone, empty, warnings, pageType, page, size } = request.query;
    return sitePages(rt, request.params.name, {
      readAlone: booleanParam(readAlone, 'readAlone'),
      empty: booleanParam(empty, 'empty'),
      warnings: booleanParam(warnings, 'warnings'),
      pageType: stringParam(pageType, 'pageType'),
      page: integerParam(page, 'page'),
      size: integerParam(size, 'size'),
    });
  });
  /**
   * A site's pages as a download (`winnow export`): the cleaned text as JSON lines or CSV, or the
   * fetches as a WARC file, streamed as they are read.
   */
  app.get<{ Params: { name: string }; Querystring: Record<string, unknown> }>('/sites/:name/export', async (request, reply) => {
    knownParams(request.query, ['format']);
    const exported = await exportSite(rt, request.params.name, exportFormat(stringParam(request.query.format, 'format')));
    return reply
      .header('content-type', exported.contentType)
      .header('content-disposition', `attachment; filename="${exported.fileName}"`)
      .send(Readable.from(exported.chunks));
  });
  /** One page by its URL (in the query: a URL does not fit a path segment), of any site unless `site` names one. */
  app.get<{ Querystring: Record<string, unknown> }>('/pages', async (request) => {
    knownParams(request.query, ['url', 'site']);
    return { page: await pageExtraction(rt, { url: stringParam(request.query.url, 'url'), site: stringParam(request.query.site, 'site') }) };
  });

  app.post<{ Params: { name: string } }>('/sites/:name/templates', async (request, reply) => {
    noSettings(request.body);
    const { site, job } = await requestTemplates(rt, request.params.name);
    return reply.status(202).send({ site: site.name, queued: true, job });
  });
  app.get<{ Params: { name: string; id: string } }>('/sites/:name/templates/jobs/:id', async (request) => ({
    job: await templateJob(rt, request.params.name, request.params.id),
  }));
  app.get<{ Params: { name: string }; Querystring: Record<string, unknown> }>('/sites/:name/templates/health', async (request) => {
    knownParams(request.query, ['since', 'page', 'size']);
    const { since, page, size } = request.query;
    return templateHealthHistory(rt, request.params.name, {
      since: stringParam(since, 'since'),
      page: integerParam(page, 'page'),
      size: integerParam(size, 'size'),
    });
  });
  app.get<{ Params: { name: string; version: string }; Querystring: Record<string, unknown> }>('/sites/:name/templates/versions/:version', async (request) => {
    knownParams(request.query, ['pageType']);
    const { name, version } = request.params;
    return templateVersion(rt, name, {
      version: version === 'current' ? undefined : integerParam(version, 'version'),
      pageType: stringParam(request.query.pageType, 'pageType'),
    });
  });
  app.get<{ Params: { name: string }; Querystring: Record<string, unknown> }>('/sites/:name/templates/diff', async (request) => {
    knownParams(request.query, ['from', 'to', 'pageType']);
    const { from, to, pageType } = request.query;
    return templateDiff(rt, request.params.name, {
      from: integerParam(from, 'from'),
      to: integerParam(to, 'to'),
      pageType: stringParam(pageType, 'pageType'),
    });
  });
  /** The stored templates, of every site or of one: one listing, answered under the site's own path too. */
  const listTemplates = async (site: string | undefined) => ({ templates: await siteTemplates(rt, site) });
  app.get<{ Params: { name: string }; Querystring: Record<string, unknown> }>('/sites/:name/templates', async (request) => {
    knownParams(request.query, []);
    return listTemplates(request.params.name);
  });
  app.get<{ Querystring: Record<string, unknown> }>('/templates', async (request) => {
    knownParams(request.query, ['site']);
    return listTemplates(stringParam(request.query.site, 'site'));
  });

  app.get<{ Querystring: Record<string, unknown> }>('/search', searchEngine, async (request) => {
    knownParams(request.query, ['q', 'site', 'page', 'size']);
    const { q, site, page, size } = request.query;
    return search(rt, { q: q ?? '', site: stringParam(site, 'site'), page: integerParam(page, 'page'), size: integerParam(size, 'size') });
  });

  app.get('/status', async () => pipelineStatus(rt));
  /** What `winnow crawl --wait` polls through the API: no crawl queued or running and no queued work. */
  app.get('/status/idle', async () => ({ idle: await isIdle(rt) }));
  return app;
}

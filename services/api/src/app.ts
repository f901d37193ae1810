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
  pipelineState,
  pageExtraction,
  pageExplanation,
  inspectedPage,
  pipelineStatus,
  hostsView,
  retryFailedJob,
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
import swagger from '@fastify/swagger';
import { createRequire } from 'node:module';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { bearerGuard, type Access } from './auth.js';
import { JSON_MEDIA_TYPES, parseJsonBody, requireJsonBody } from './body.js';
import { type ApiErrorCode, codeOf, errorAnswer, RequestRefusedError, unavailableMessage } from './errors.js';
import { declareConsole } from './console.js';
import { answerReadsWhileEnginesAreDown, EngineDownError } from './engineWatch.js';
import { hostGuard } from './hosts.js';
import { COMPONENTS, queryNames, SCHEMAS } from './schemas.js';

/** The API's version, as the OpenAPI document states it: the package's. */
const API_VERSION = (createRequire(import.meta.url)('../package.json') as { version: string }).version;

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

/** The methods the API's routes are registered with (a GET route answers HEAD too). */
const ROUTE_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** Answers with the one error shape (`ApiErrorBody`) and the status its code has. */
function sendError(reply: FastifyReply, code: ApiErrorCode, message: string): void {
  const { status, body } = errorAnswer(code, message);
  void reply.status(status).send(body);
}

/**
 * Node's HTTP parser refuses some requests before Fastify sees them (a URL and headers over
 * `maxHeaderSize`, bytes that are not HTTP, a request that arrives too slowly); they get the API's
 * error format too, not Fastify's default body.
 */
function clientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
  const [code, message]: [ApiErrorCode, string] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? ['headers-too-large', `the URL and headers are larger than ${maxHeaderSize} bytes`]
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? ['request-timeout', 'the request did not arrive in time']
        : ['request-malformed', 'the request is not valid HTTP'];
  const answer = errorAnswer(code, message);
  const { status } = answer;
  const body = JSON.stringify(answer.body);
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
      if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') sendError(reply, 'param-too-long', 'a path parameter is too long');
      else sendError(reply, 'url-malformed', 'the URL is not valid (a bad percent-encoding?)');
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
      if (access !== 'asset') checkToken(request.headers.authorization, access);
    }
    requireJsonBody(request.method, request.headers);
  });
  // A query parameter a route does not take is refused, naming those its schema lists (what /openapi.json says it takes).
  app.addHook('preValidation', async (request) => {
    if (!request.is404 && request.routeOptions.config.access !== 'probe')
      knownParams(request.query as Record<string, unknown>, queryNames(request.routeOptions.schema));
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(JSON_MEDIA_TYPES, { parseAs: 'string' }, async (_request: unknown, body: string) => parseJsonBody(body));

  app.setErrorHandler(async (error: Error & { statusCode?: number }, _request, reply) => {
    const code = codeOf(error);
    if (code === 'internal') rt.log.error({ err: error }, 'request failed');
    let message = code === 'internal' ? 'internal error' : error.message;
    if (code === 'unavailable') {
      // Named as `/ready` finds them: which engine failed is what an operator (and a client deciding to retry) needs.
      const { checks } = error instanceof EngineDownError ? error : await readiness(rt);
      message = unavailableMessage(rt.search.kind, checks);
      rt.log.warn({ err: error, checks }, `request failed: ${message}`);
      void reply.header('retry-after', '5');
    }
    if (error instanceof RequestRefusedError && error.challenge) void reply.header('www-authenticate', error.challenge);
    sendError(reply, code, message);
  });

  /** An unknown path is a 404; a known path asked with a method it does not take, a 405 naming those it takes. */
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const allowed = ROUTE_METHODS.filter((method) => app.findRoute({ method, url: path }) !== null);
    if (allowed.length === 0) return sendError(reply, 'route-unknown', `no route ${request.method} ${path.slice(0, 200)}`);
    void reply.header('allow', allowed.join(', '));
    sendError(reply, 'method-not-allowed', `${request.method} is not allowed on ${path.slice(0, 200)}; it takes ${allowed.join(', ')}`);
  });

  // The route schemas describe (for /openapi.json); the operations validate, with their own messages,
  // and answers are sent whole: no schema filters a field out of one.
  app.setValidatorCompiler(() => () => true);
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  for (const component of COMPONENTS) app.addSchema(component);
  void app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Winnow',
        version: API_VERSION,
        description:
          'Operate Winnow (sites, crawls, templates, pages) and search its index. Every error answers {"error", "code"}; each code has one HTTP status.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'WINNOW_API_TOKEN: an operate, search or metrics token' } } },
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
  });
  answerReadsWhileEnginesAreDown(app, rt);
  // Routes are declared in a plugin registered after swagger's, so that swagger sees every one.
  void app.register((api, _options, done) => {
    declareRoutes(api, rt);
    done();
  });
  return app;
}

/** Every route of the API, each with its schema (`SCHEMAS`) and who may call it. */
function declareRoutes(api: FastifyInstance, rt: Runtime): void {
  const probe = { config: { access: 'probe' } } as const;
  const searchEngine = { config: { access: 'search' } } as const;
  const scraper = { config: { access: 'metrics' } } as const;

  api.get('/openapi.json', { ...searchEngine, schema: SCHEMAS.openapi }, async () => api.swagger());

  /** Prometheus's: every metric of this process (in `winnow up`, every worker's) and the shared pipeline's state. */
  api.get('/metrics', { ...scraper, schema: SCHEMAS.metrics }, async (_request, reply) =>
    reply.type(rt.metrics.contentType).send(await rt.metrics.text(await pipelineState(rt))),
  );

  api.get('/health', { ...probe, schema: SCHEMAS.health }, async () => ({ status: 'ok' }));
  api.get('/ready', { ...probe, schema: SCHEMAS.ready }, async (_request, reply) => {
    const { ready, checks } = await readiness(rt);
    if (ready) return reply.send({ status: 'ready', checks });
    const failed = Object.entries(checks).flatMap(([name, state]) => (state === 'ok' ? [] : [name]));
    // The error shape, with the checks beside it: an orchestrator reads the status, an operator the message.
    const { status, body } = errorAnswer('not-ready', `not ready: ${failed.join(', ')} failed (the reasons are in the API's log)`);
    return reply.status(status).send({ ...body, status: 'not ready', checks });
  });

  api.get('/sites', { schema: SCHEMAS.listSites }, async () => ({ sites: await listSites(rt.db) }));
  api.post('/sites', { schema: SCHEMAS.addSite }, async (request, reply) => reply.status(201).send({ site: await addSite(rt, request.body) }));
  api.get<{ Params: { name: string } }>('/sites/:name', { schema: SCHEMAS.getSite }, async (request) => ({ site: await requireSite(rt, request.params.name) }));
  api.put<{ Params: { name: string } }>('/sites/:name', { schema: SCHEMAS.replaceSite }, async (request) => ({
    site: await replaceSite(rt, request.params.name, request.body),
  }));
  /** A JSON merge patch (RFC 7396) of the site's configuration: the settings it names change, `null` resets one to its default. */
  api.patch<{ Params: { name: string } }>('/sites/:name', { schema: SCHEMAS.patchSite }, async (request) => ({
    site: await updateSite(rt, request.params.name, request.body),
  }));
  /** Removes the site and everything of it; answers what was removed. */
  api.delete<{ Params: { name: string } }>('/sites/:name', { schema: SCHEMAS.removeSite }, async (request) => ({
    removed: await removeSite(rt, request.params.name),
  }));

  api.post<{ Params: { name: string } }>('/sites/:name/crawl', { schema: SCHEMAS.startCrawl }, async (request, reply) => {
    noSettings(request.body);
    return reply.status(202).send({ crawl: await startCrawl(rt, request.params.name) });
  });
  api.post<{ Params: { name: string } }>('/sites/:name/crawl/stop', { schema: SCHEMAS.stopCrawl }, async (request) => {
    noSettings(request.body);
    const crawl = await stopCrawl(rt, request.params.name);
    if (!crawl) throw new WinnowError('conflict', `no crawl of ${request.params.name} is queued or running`);
    return { crawl };
  });
  api.get<{ Params: { name: string }; Querystring: Record<string, unknown> }>('/sites/:name/crawl/log', { schema: SCHEMAS.crawlLog }, async (request) => {
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
  api.get<{ Params: { name: string } }>('/sites/:name/crawl', { schema: SCHEMAS.crawlStatus }, async (request) => ({
    crawl: (await crawlStatus(rt, request.params.name)) ?? null,
  }));

  api.get<{ Params: { name: string }; Querystring: Record<string, unknown> }>('/sites/:name/pages', { schema: SCHEMAS.sitePages }, async (request) => {
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
  api.get<{ Params: { name: string }; Querystring: Record<string, unknown> }>('/sites/:name/export', { schema: SCHEMAS.exportSite }, async (request, reply) => {
    const exported = await exportSite(rt, request.params.name, exportFormat(stringParam(request.query.format, 'format')));
    return reply
      .header('content-type', exported.contentType)
      .header('content-disposition', `attachment; filename="${exported.fileName}"`)
      .send(Readable.from(exported.chunks));
  });
  /** One page by its URL (in the query: a URL does not fit a path segment), of any site unless `site` names one. */
  api.get<{ Querystring: Record<string, unknown> }>('/pages', { schema: SCHEMAS.page }, async (request) => {
    return { page: await pageExtraction(rt, { url: stringParam(request.query.url, 'url'), site: stringParam(request.query.site, 'site') }) };
  });

  /** Why the page has its text: its stored body re-read with the template that read it, line by line. */
  api.get<{ Querystring: Record<string, unknown> }>('/pages/explain', { schema: SCHEMAS.explainPage }, async (request) => {
    return { explanation: await pageExplanation(rt, { url: stringParam(request.query.url, 'url'), site: stringParam(request.query.site, 'site') }) };
  });
  /**
   * The stored page marked with its explanation, for the console's inspector frame. Sent as JSON
   * text, never as a document of the API's origin: the page's own HTML, scripts included, must
   * not run with the API's origin (the console puts it in a sandboxed `srcdoc` frame).
   */
  api.get<{ Querystring: Record<string, unknown> }>('/pages/inspect', { schema: SCHEMAS.inspectPage }, async (request) => {
    return { html: await inspectedPage(rt, { url: stringParam(request.query.url, 'url'), site: stringParam(request.query.site, 'site') }) };
  });
  api.post<{ Params: { name: string } }>('/sites/:name/templates', { schema: SCHEMAS.prepareTemplates }, async (request, reply) => {
    noSettings(request.body);
    const { site, job } = await requestTemplates(rt, request.params.name);
    return reply.status(202).send({ site: site.name, queued: true, job });
  });
  api.get<{ Params: { name: string; id: string } }>('/sites/:name/templates/jobs/:id', { schema: SCHEMAS.templateJob }, async (request) => ({
    job: await templateJob(rt, request.params.name, request.params.id),
  }));
  api.get<{ Params: { name: string }; Querystring: Record<string, unknown> }>(
    '/sites/:name/templates/health',
    { schema: SCHEMAS.templateHealth },
    async (request) => {
      knownParams(request.query, queryNames(request.routeOptions.schema));
      const { since, page, size } = request.query;
      return templateHealthHistory(rt, request.params.name, {
        since: stringParam(since, 'since'),
        page: integerParam(page, 'page'),
        size: integerParam(size, 'size'),
      });
    },
  );
  api.get<{ Params: { name: string; version: string }; Querystring: Record<string, unknown> }>(
    '/sites/:name/templates/versions/:version',
    { schema: SCHEMAS.templateVersion },
    async (request) => {
      knownParams(request.query, queryNames(request.routeOptions.schema));
      const { name, version } = request.params;
      return templateVersion(rt, name, {
        version: version === 'current' ? undefined : integerParam(version, 'version'),
        pageType: stringParam(request.query.pageType, 'pageType'),
      });
    },
  );
  api.get<{ Params: { name: string }; Querystring: Record<string, unknown> }>(
    '/sites/:name/templates/diff',
    { schema: SCHEMAS.templateDiff },
    async (request) => {
      knownParams(request.query, queryNames(request.routeOptions.schema));
      const { from, to, pageType } = request.query;
      return templateDiff(rt, request.params.name, {
        from: integerParam(from, 'from'),
        to: integerParam(to, 'to'),
        pageType: stringParam(pageType, 'pageType'),
      });
    },
  );
  /** The stored templates, of every site or of one: one listing, answered under the site's own path too. */
  const listTemplates = async (site: string | undefined) => ({ templates: await siteTemplates(rt, site) });
  api.get<{ Params: { name: string }; Querystring: Record<string, unknown> }>('/sites/:name/templates', { schema: SCHEMAS.siteTemplates }, async (request) => {
    return listTemplates(request.params.name);
  });
  api.get<{ Querystring: Record<string, unknown> }>('/templates', { schema: SCHEMAS.templates }, async (request) => {
    return listTemplates(stringParam(request.query.site, 'site'));
  });

  api.get<{ Querystring: Record<string, unknown> }>('/search', { ...searchEngine, schema: SCHEMAS.search }, async (request) => {
    const { q, site, page, size } = request.query;
    return search(rt, { q: q ?? '', site: stringParam(site, 'site'), page: integerParam(page, 'page'), size: integerParam(size, 'size') });
  });

  api.get('/status', { schema: SCHEMAS.status }, async () => pipelineStatus(rt));
  api.post<{ Params: { queue: string; id: string } }>('/jobs/:queue/:id/retry', { schema: SCHEMAS.retryJob }, async (request) => {
    noSettings(request.body);
    return retryFailedJob(rt, request.params.queue, request.params.id);
  });
  api.get('/hosts', { schema: SCHEMAS.hosts }, async () => ({ hosts: await hostsView(rt) }));
  declareConsole(api);
  /** What `winnow crawl --wait` polls through the API: no crawl queued or running and no queued work. */
  api.get('/status/idle', { schema: SCHEMAS.idle }, async () => ({ idle: await isIdle(rt) }));
}

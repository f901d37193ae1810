import { MAX_PAGE_SIZE, siteConfigJsonSchema } from '@winnow/config';
import { CRAWL_LOG_OUTCOMES } from '@winnow/storage';
import type { FastifySchema } from 'fastify';
import { API_ERROR_CODES } from './errors.js';

/**
 * The routes' schemas, from which `/openapi.json` is generated (@fastify/swagger). They describe;
 * the operations validate (with the messages the API's tests hold them to), and answers are
 * serialized whole, never filtered by a schema. A route's `querystring` names the parameters it
 * takes: the API refuses any other by that list (`knownParams`), so the document cannot name a
 * parameter the route would refuse, nor leave out one it takes.
 */

type Json = Record<string, unknown>;

const string = (description?: string): Json => ({ type: 'string', ...(description ? { description } : {}) });
const integer = (description: string, extra: Json = {}): Json => ({ type: 'integer', description, ...extra });
const nullable = (schema: Json): Json => ({ ...schema, type: [schema.type, 'null'] });
const timestamp = (description: string): Json => ({ type: 'string', format: 'date-time', description });
const ref = (name: string): Json => ({ $ref: `${name}#` });
/** An object whose named properties are described; others the answer may add are allowed (the document never hides a field). */
const object = (properties: Record<string, Json>, required: string[] = Object.keys(properties)): Json => ({ type: 'object', properties, required });

const page = integer('page of the listing, from 1', { minimum: 1, default: 1 });
const size = (fallback: number) => integer(`entries per page (at most ${MAX_PAGE_SIZE})`, { minimum: 1, maximum: MAX_PAGE_SIZE, default: fallback });
const flag = (description: string): Json => ({ type: 'string', enum: ['true', 'false'], description });
const siteParam = { type: 'object', properties: { name: string("the site's name") }, required: ['name'] };

/** The shared components: the one error shape, and the objects several answers carry. */
export const COMPONENTS: (Json & { $id: string })[] = [
  {
    $id: 'Error',
    ...object({
      error: string('what went wrong, in words a person can act on'),
      code: { type: 'string', enum: API_ERROR_CODES, description: 'what went wrong, for a program: each code has one HTTP status' },
    }),
  },
  { $id: 'SiteConfig', ...siteConfigJsonSchema() },
  {
    $id: 'Site',
    ...object({
      id: { type: 'integer' },
      name: string(),
      config: ref('SiteConfig'),
      configProblem: nullable(string('what this version refuses in settings an earlier one stored; the site is not crawled until it is fixed')),
      templateVersion: integer('the current template version (0: none yet)'),
      createdAt: timestamp('when the site was added'),
    }),
  },
  {
    $id: 'Crawl',
    ...object({
      id: { type: 'integer' },
      siteId: { type: 'integer' },
      state: { type: 'string', enum: ['queued', 'running', 'stopping', 'stopped', 'finished', 'failed'] },
      counts: {
        type: 'object',
        additionalProperties: { type: 'integer' },
        description: 'URLs by outcome (stored, unchanged, moved, gone, refused, disallowed, failed), and queued, inFlight, cancelled, duplicate, revisited',
      },
      error: nullable(string()),
      requestedAt: timestamp('when the crawl was asked for'),
      startedAt: nullable(timestamp('when a crawler started it')),
      finishedAt: nullable(timestamp('when it ended')),
    }),
  },
  {
    $id: 'PageExtraction',
    description: "One page's extraction in full: `winnow page --json` prints the same object under `page`.",
    ...object({
      url: string(),
      site: string(),
      title: nullable(string()),
      pageType: nullable(string('the page type of the template that read it; null when none did')),
      templateVersion: nullable({ type: 'integer' }),
      method: string('the extraction method'),
      wordCount: { type: 'integer' },
      readAlone: { type: 'boolean', description: "the pipeline's self-check did not trust the template's reading and read the page alone" },
      duplicateOf: nullable(string('the URL of the page indexed in its place')),
      warnings: { type: 'array', items: string() },
      mainText: string('the main text, one block a line, in document order'),
      extractedAt: timestamp('when it was extracted'),
    }),
  },
  {
    $id: 'PageExplanation',
    description:
      'Why a page has its text (`winnow page <url> --explain --json` prints the same object under `explanation`): its stored body re-read with the template that read it, every line of the page in document order, kept or dropped by the rule that decided.',
    ...object({
      page: ref('PageExtraction'),
      selfCheck: object({
        verdict: { type: 'string', enum: ['agreed', 'template', 'read-alone', 'none'] },
        reason: string('why, for read-alone: no-template-yet, no-layout, misfit, disagreed'),
      }),
      layout: nullable({
        ...object({ pageCount: integer('sample pages of the layout'), similarity: { type: 'number', description: 'share of its block paths the page has' } }),
      }),
      readAlone: nullable(string('why the self-check read the page alone')),
      lines: {
        type: 'array',
        items: object({
          text: string(),
          path: string('the block path where the line starts'),
          kept: { type: 'boolean' },
          rule: string(
            'the rule that kept or dropped it: both-readings, reader-unjudged, headline-template, headline-title, standfirst-template, byline-under-headline, list-after-label, read-alone, template-only, method; repeated-on-site, not-confirmed-by-template, not-confirmed-by-reader, outside-article, outside-main-region, boilerplate-container, not-content-path, link-dense, similar-to-boilerplate, not-in-reading',
          ),
          reason: string('the rule in words'),
          block: integer("the line's block in the page's block tree (-1 when not found)"),
        }),
      },
      keptText: string('the kept lines, one a line: the stored main text when matchesStored'),
      matchesStored: { type: 'boolean', description: 'the re-reading keeps exactly the stored main text' },
      previous: nullable({
        ...object({
          templateVersion: { type: 'integer' },
          diff: { type: 'array', items: object({ change: { type: 'string', enum: ['same', 'added', 'removed'] }, text: string() }) },
        }),
        description: "the page read by its page type's template of the previous version, line by line against its reading now",
      }),
    }),
  },
  {
    $id: 'Listing',
    description: 'One page of a listing: the entries, where they are in the whole, and how many there are.',
    ...object({ page: { type: 'integer' }, size: { type: 'integer' }, total: { type: 'integer' }, entries: { type: 'array', items: { type: 'object' } } }),
  },
];

const errors = { '4XX': ref('Error'), '5XX': ref('Error') };

/** A route's schema: what it does, who may call it, its parameters, and its answers (every error in the one shape). */
function route(
  tag: string,
  summary: string,
  parts: FastifySchema & { success?: Record<string, Json> },
  security: 'operate' | 'search' | 'metrics' | 'none' = 'operate',
): FastifySchema {
  const { success = { 200: { type: 'object' } }, ...rest } = parts;
  return {
    tags: [tag],
    summary,
    ...(security === 'none' ? { security: [] } : { security: [{ bearer: [] }] }),
    ...rest,
    response: { ...success, ...errors },
  } as FastifySchema;
}

const withSite = (extra: Json = {}) => ({ ...siteParam, properties: { ...siteParam.properties, ...extra } });

export const SCHEMAS = {
  health: route('probes', 'the process runs', { success: { 200: object({ status: { const: 'ok' } }) } }, 'none'),
  ready: route(
    'probes',
    'the database, Redis and the search index answer (503 and which failed, when not)',
    { success: { 200: object({ status: { const: 'ready' }, checks: { type: 'object', additionalProperties: { type: 'string', enum: ['ok', 'failed'] } } }) } },
    'none',
  ),
  metrics: route(
    'observability',
    'every metric in the Prometheus text format (a metrics or operate token)',
    { success: { 200: { type: 'string', description: 'text/plain; version=0.0.4' } } },
    'metrics',
  ),
  openapi: route('observability', 'this document', { success: { 200: { type: 'object' } } }, 'search'),
  listSites: route('sites', 'every site', { success: { 200: object({ sites: { type: 'array', items: ref('Site') } }) } }),
  addSite: route('sites', 'add a site', { body: ref('SiteConfig'), success: { 201: object({ site: ref('Site') }) } }),
  getSite: route('sites', 'one site', { params: siteParam, success: { 200: object({ site: ref('Site') }) } }),
  replaceSite: route('sites', "replace a site's whole configuration (settings left out take their defaults)", {
    params: siteParam,
    body: ref('SiteConfig'),
    success: { 200: object({ site: ref('Site') }) },
  }),
  patchSite: route('sites', "change some of a site's settings: a JSON merge patch (RFC 7396; null resets a setting to its default)", {
    params: siteParam,
    body: { type: 'object', description: 'the settings to change, as in SiteConfig; null resets one' },
    success: { 200: object({ site: ref('Site') }) },
  }),
  removeSite: route('sites', 'remove a site with its crawls, pages, templates and index documents; answers how many of each', {
    params: siteParam,
    success: {
      200: object({
        removed: object({
          site: string(),
          crawls: { type: 'integer' },
          pages: { type: 'integer' },
          templateVersions: { type: 'integer' },
          templates: { type: 'integer' },
          documents: { type: 'integer' },
        }),
      }),
    },
  }),
  startCrawl: route('crawls', 'start a crawl of the site (409 while one is queued or running)', {
    params: siteParam,
    success: { 202: object({ crawl: ref('Crawl') }) },
  }),
  stopCrawl: route('crawls', "stop the site's crawl: queued URLs are cancelled, those in flight finish", {
    params: siteParam,
    success: { 200: object({ crawl: ref('Crawl') }) },
  }),
  crawlStatus: route('crawls', "the site's latest crawl (null: never crawled)", {
    params: siteParam,
    success: { 200: object({ crawl: { oneOf: [ref('Crawl'), { type: 'null' }] } }) },
  }),
  crawlLog: route('crawls', "the site's URLs not stored, with the crawler's reason, newest crawl first", {
    params: siteParam,
    querystring: {
      type: 'object',
      properties: {
        outcome: string(`only these outcomes, comma-separated: ${CRAWL_LOG_OUTCOMES.join(', ')}`),
        crawl: integer('only this crawl of the site', { minimum: 1 }),
        page,
        size: size(50),
      },
    },
    success: { 200: { allOf: [ref('Listing')], description: 'entries, with the counts of URLs not admitted per reason (notAdmitted)' } },
  }),
  sitePages: route('pages', "the site's extracted pages, filtered and paged", {
    params: siteParam,
    querystring: {
      type: 'object',
      properties: {
        readAlone: flag('only pages the self-check read alone (true) or not (false)'),
        empty: flag('only pages with no words (true) or some (false)'),
        warnings: flag('only pages with warnings (true) or without (false)'),
        pageType: string('only pages read by a template of this page type'),
        page,
        size: size(50),
      },
    },
    success: { 200: ref('Listing') },
  }),
  exportSite: route('pages', "the site's pages as a download: the cleaned text as JSON lines or CSV, or its fetches as a WARC file", {
    params: siteParam,
    querystring: {
      type: 'object',
      properties: { format: { type: 'string', enum: ['jsonl', 'csv', 'warc'], default: 'jsonl', description: 'what to download' } },
    },
    success: { 200: { type: 'string', description: 'application/x-ndjson, text/csv or application/warc, streamed' } },
  }),
  page: route('pages', "one page's extraction in full, by its URL", {
    querystring: {
      type: 'object',
      properties: { url: string('the URL as the crawl stored it'), site: string('the site, when two sites crawled the URL') },
      required: ['url'],
    },
    success: { 200: object({ page: ref('PageExtraction') }) },
  }),
  explainPage: route('pages', 'why one page has its text: every line, kept or dropped, and the rule that decided', {
    querystring: {
      type: 'object',
      properties: { url: string('the URL as the crawl stored it'), site: string('the site, when two sites crawled the URL') },
      required: ['url'],
    },
    success: { 200: object({ explanation: ref('PageExplanation') }) },
  }),
  inspectPage: route('pages', "the stored page marked with its explanation: each element outlined kept or dropped, with its lines' rules", {
    querystring: {
      type: 'object',
      properties: { url: string('the URL as the crawl stored it'), site: string('the site, when two sites crawled the URL') },
      required: ['url'],
    },
    success: {
      200: object({ html: string("the marked page, for a sandboxed frame's srcdoc: sent as JSON so that it never runs as a document of the API's origin") }),
    },
  }),
  prepareTemplates: route('templates', "prepare the site's templates again now (409 without stored pages); answers the job to follow", {
    params: siteParam,
    success: { 202: object({ site: string(), queued: { const: true }, job: string('the job id') }) },
  }),
  templateJob: route('templates', 'a template preparation job: its state and outcome', {
    params: { ...withSite({ id: string('the job id') }), required: ['name', 'id'] },
    success: { 200: object({ job: { type: 'object' } }) },
  }),
  templateHealth: route('templates', "the site's page types' health over time, newest first", {
    params: siteParam,
    querystring: {
      type: 'object',
      properties: { since: string('only records from this ISO 8601 date or time with its zone'), page, size: size(50) },
    },
    success: { 200: ref('Listing') },
  }),
  templateVersion: route('templates', "one version of the site's templates in full", {
    params: { ...withSite({ version: string('a version number, or current') }), required: ['name', 'version'] },
    querystring: { type: 'object', properties: { pageType: string('only this page type') } },
  }),
  templateDiff: route('templates', "what changed in the site's templates between two versions", {
    params: siteParam,
    querystring: {
      type: 'object',
      properties: {
        from: integer('the version compared with', { minimum: 1 }),
        to: integer('the version compared (default: the current one)', { minimum: 1 }),
        pageType: string('only this page type'),
      },
      required: ['from'],
    },
  }),
  siteTemplates: route('templates', "the site's stored templates", { params: siteParam, querystring: { type: 'object', properties: {} } }),
  templates: route('templates', 'the stored templates of every site, or of one', {
    querystring: { type: 'object', properties: { site: string('only this site') } },
  }),
  search: route(
    'search',
    'search the index: "quoted words" are an exact phrase, other words must all occur',
    {
      querystring: {
        type: 'object',
        properties: { q: string('the query'), site: string('only this site'), page, size: size(10) },
        required: ['q'],
      },
    },
    'search',
  ),
  status: route('status', 'pages per site and stage, queues, failed jobs and pages', {}),
  retryJob: route('status', 'run a failed job again (the status lists failed jobs)', {
    params: {
      type: 'object',
      properties: { queue: string('the queue: crawl, extract, index or template'), id: string('the job id') },
      required: ['queue', 'id'],
    },
    success: { 200: object({ queue: string(), id: string(), retried: { const: true } }) },
  }),
  hosts: route('status', "the hosts of the sites' latest crawls: in flight, queued, waiting, interval, robots.txt state, back-offs and last errors", {
    success: { 200: object({ hosts: { type: 'array', items: { type: 'object' } } }) },
  }),
  console: { hide: true } as FastifySchema,
  idle: route('status', 'whether no crawl is queued or running and no queue holds work', { success: { 200: object({ idle: { type: 'boolean' } }) } }),
} satisfies Record<string, FastifySchema>;

/** The parameters a route's schema names in its query string: those it takes. */
export function queryNames(schema: FastifySchema | undefined): string[] {
  const properties = (schema?.querystring as { properties?: Record<string, unknown> } | undefined)?.properties;
  return Object.keys(properties ?? {});
}

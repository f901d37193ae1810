import {
  addSite,
  listSites,
  pipelineStatus,
  removeSite,
  requestTemplates,
  search,
  startCrawl,
  type Runtime,
  type Service,
} from '@winnow/runtime';
import { startApi } from '@winnow/api';
import { listTemplates } from '@winnow/storage';
import { closeAll, followPipeline, openCommandRuntime, startWorkers, withRuntime, WORKER_NAMES, WORKERS } from '../pipeline.js';
import { UsageError } from '../usageError.js';

const write = (text: string) => process.stdout.write(text);

/** Runs until SIGTERM or SIGINT, then closes the services (current jobs finish) and the runtime. */
async function serveUntilSignal(rt: Runtime, services: Service[]): Promise<void> {
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
  process.stderr.write('stopping: finishing current jobs\n');
  await closeAll(services);
  await rt.close();
}

/** `winnow up`: every worker and the API in this process. */
export async function upCommand(): Promise<void> {
  const rt = await openCommandRuntime();
  const workers = await startWorkers(rt);
  const api = await startApi(rt);
  const index = rt.search.kind === 'elasticsearch' ? 'Elasticsearch' : 'the Postgres full-text index';
  process.stderr.write(`winnow is up: API on ${api.url}, ${rt.env.DATABASE_URL ? 'Postgres' : 'embedded PGlite'}, ${rt.privateRedis ? 'a private redis-server' : 'Redis'}, ${index}\n`);
  await serveUntilSignal(rt, [...workers, api]);
}

/** `winnow worker <name>`: one service as this process's only job. */
export async function workerCommand(name: string): Promise<void> {
  const start = WORKERS[name];
  if (!start) throw new UsageError(`unknown worker "${name}"; known: ${WORKER_NAMES.join(', ')}`);
  const rt = await openCommandRuntime();
  if (rt.privateRedis && name !== 'api') process.stderr.write('warning: no REDIS_URL: this worker has a private Redis that no other process can enqueue into\n');
  const service = await start(rt);
  process.stderr.write(`worker ${name} started\n`);
  await serveUntilSignal(rt, [service]);
}

export interface SiteAddFlags {
  seed: string[];
  allow?: string[];
  maxPages?: number;
  maxDepth?: number;
  concurrency?: number;
  delayMs?: number;
  render?: string;
  minTemplatePages?: number;
  templateEveryMs?: number;
}

export async function sitesAddCommand(name: string, flags: SiteAddFlags): Promise<void> {
  await withRuntime(async (rt) => {
    const site = await addSite(rt, { name, seeds: flags.seed, ...definedOnly({ ...flags, seed: undefined }) });
    write(`added site ${site.name}: ${site.config.seeds.join(' ')}\n`);
  });
}

function definedOnly(flags: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(flags).filter(([key, value]) => value !== undefined && key !== 'seed'));
}

export async function sitesListCommand(flags: { json?: boolean }): Promise<void> {
  await withRuntime(async (rt) => {
    const sites = await listSites(rt.db);
    if (flags.json) return void write(`${JSON.stringify(sites, null, 2)}\n`);
    if (sites.length === 0) return void write('no sites; add one with `winnow sites add <name> --seed <url>`\n');
    for (const site of sites) write(`${site.name}\t${site.config.render}\tmax ${site.config.maxPages} pages\ttemplates v${site.templateVersion}\t${site.config.seeds.join(' ')}\n`);
  });
}

export async function sitesRemoveCommand(name: string): Promise<void> {
  await withRuntime(async (rt) => {
    await removeSite(rt, name);
    write(`removed site ${name} with its pages, templates and index documents\n`);
  });
}

/**
 * `winnow crawl <site>`: with a shared Redis the crawl is queued for the running workers (and
 * followed with `--wait`); with the embedded default the work runs in this process, which waits
 * until the crawl is crawled, templated, extracted and indexed.
 */
export async function crawlCommand(name: string, flags: { wait?: boolean }): Promise<void> {
  await withRuntime(async (rt) => {
    const crawl = await startCrawl(rt, name);
    if (!rt.privateRedis && !flags.wait) return void write(`crawl ${crawl.id} of ${name} queued; follow it with \`winnow status\`\n`);
    const services = rt.privateRedis ? await startWorkers(rt) : [];
    try {
      await followPipeline(rt, [name]);
    } finally {
      await closeAll(services);
    }
    await printStatus(rt, [name]);
  });
}

export async function templatesPrepareCommand(name: string): Promise<void> {
  await withRuntime(async (rt) => {
    await requestTemplates(rt, name);
    if (!rt.privateRedis) return void write(`template preparation of ${name} queued\n`);
    const services = await startWorkers(rt);
    try {
      await followPipeline(rt, [name]);
    } finally {
      await closeAll(services);
    }
    await templatesListCommand(name, {}, rt);
  });
}

export async function templatesListCommand(site: string | undefined, flags: { json?: boolean }, shared?: Runtime): Promise<void> {
  const list = async (rt: Runtime) => {
    const templates = await listTemplates(rt.db, site);
    if (flags.json) return void write(`${JSON.stringify(templates, null, 2)}\n`);
    if (templates.length === 0) return void write('no templates yet\n');
    for (const t of templates) {
      write(`${t.site}\tv${t.version}${t.current ? ' (current)' : ''}\t${t.cluster}\t${t.pageCount} pages, ${t.sampleSize} sampled, ${t.contentPaths} content paths\t${t.urlPatterns.join(' ')}\n`);
    }
  };
  if (shared) await list(shared);
  else await withRuntime(list);
}

/** `<mark>` to reverse video on a terminal, to «» elsewhere; the entities `highlight` writes decoded. */
export function renderHighlight(fragment: string, tty: boolean): string {
  return fragment
    .replace(/<mark>/g, tty ? '\x1b[7m' : '«')
    .replace(/<\/mark>/g, tty ? '\x1b[27m' : '»')
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
}

export async function searchCommand(query: string, flags: { site?: string; page?: number; size?: number; json?: boolean }, shared?: Runtime): Promise<void> {
  const run = async (rt: Runtime) => {
    const result = await search(rt, { q: query, site: flags.site, page: flags.page, size: flags.size });
    if (flags.json) return void write(`${JSON.stringify(result, null, 2)}\n`);
    const first = (result.page - 1) * result.size + 1;
    write(`${result.total} page${result.total === 1 ? '' : 's'} match ${query}${result.hits.length ? ` (showing ${first}-${first + result.hits.length - 1})` : ''}\n`);
    for (const hit of result.hits) {
      write(`\n${hit.title || '(no title)'} [${hit.site}]\n  ${hit.url}\n`);
      for (const fragment of hit.highlights) write(`  ${renderHighlight(fragment, process.stdout.isTTY === true)}\n`);
    }
  };
  if (shared) await run(shared);
  else await withRuntime(run);
}

export async function printStatus(rt: Runtime, sites?: readonly string[]): Promise<void> {
  const status = await pipelineStatus(rt);
  for (const site of status.sites.filter((candidate) => !sites || sites.includes(candidate.site))) {
    const crawl = site.crawl ? `crawl ${site.crawl.id} ${site.crawl.state}` : 'never crawled';
    write(
      `${site.site}: ${crawl}; ${site.stored} pages stored, ${site.rejected} refused; ${site.extracted} extracted, ${site.indexed} indexed; ` +
        `templates v${site.templateVersion}; failed: ${site.failedExtract} extraction, ${site.failedIndex} indexing\n`,
    );
  }
  if (sites) return;
  for (const [queue, counts] of Object.entries(status.queues)) {
    write(`queue ${queue}: ${counts.waiting} waiting, ${counts.active} active, ${counts.delayed} delayed, ${counts.failed} failed\n`);
  }
  for (const job of status.failedJobs) write(`failed job ${job.queue}#${job.id} ${JSON.stringify(job.payload)} after ${job.attempts} attempts: ${job.error}\n`);
  for (const page of status.failedPages) write(`failed page ${page.url} (${page.stage}) after ${page.attempts} attempts: ${page.error}\n`);
}

export async function statusCommand(flags: { json?: boolean }): Promise<void> {
  await withRuntime(async (rt) => {
    if (flags.json) return void write(`${JSON.stringify(await pipelineStatus(rt), null, 2)}\n`);
    await printStatus(rt);
  });
}

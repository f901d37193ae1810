import type { CrawlLogPage, PipelineStatus, RemovedSite, Runtime } from '@winnow/runtime';
import type { CrawlCounts, NotAdmittedReason, CrawlLogOutcome, Site } from '@winnow/storage';
import { CRAWL_LOG_OUTCOMES, CRAWL_OUTCOMES } from '@winnow/storage/outcomes';
import type { SearchResult } from '../apiClient.js';
import { withOperator, type Operator } from '../operator.js';
import { asJson, counted, duration, listingFooter, write } from './output.js';
import { extractionNotes } from './pages.js';
import { UsageError } from '../usageError.js';

/** The site settings `sites add` and `sites update` take, as commander names their flags (`--max-pages` is `maxPages`). */
export interface SiteSettingFlags {
  seed?: string[];
  allowPrivate?: boolean;
  allow?: string[];
  maxPages?: number;
  maxDepth?: number;
  concurrency?: number;
  delayMs?: number;
  render?: string;
  minTemplatePages?: number;
  templateEveryMs?: number;
  sitemaps?: boolean;
  maxSitemaps?: number;
  recrawlEveryMs?: number;
  maxPagesPerPattern?: number;
}

/** The configuration keys of the flags named otherwise; every other flag is named for its key. */
const CONFIG_KEYS: Partial<Record<keyof SiteSettingFlags, string>> = { seed: 'seeds', allowPrivate: 'allowPrivateAddresses' };

/** The flags given, by their configuration keys (the schema in packages/config checks their values). */
function siteSettings(flags: object): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(flags)
      .filter(([, value]) => value !== undefined)
      .map(([flag, value]) => [CONFIG_KEYS[flag as keyof SiteSettingFlags] ?? flag, value]),
  );
}

export async function sitesAddCommand(name: string, flags: SiteSettingFlags & { seed: string[] }): Promise<void> {
  await withOperator(async (operator) => {
    const site = await operator.addSite({ name, ...siteSettings(flags) });
    write(`added site ${site.name}: ${site.config.seeds.join(' ')}\n`);
  });
}

/**
 * `winnow sites update <name>`: the settings given change and `--reset` ones go back to their
 * defaults (as a merge patch: `null`), the others keep theirs. Prints what changed, then the site
 * as `sites list` does.
 */
export async function sitesUpdateCommand(name: string, flags: SiteSettingFlags & { reset?: string[]; json?: boolean }): Promise<void> {
  const { reset = [], json, ...given } = flags;
  const changes = siteSettings(given);
  const resets = siteSettings(Object.fromEntries(reset.map((flag) => [flag, null])));
  const contradicted = Object.keys(resets).filter((key) => key in changes);
  if (contradicted.length > 0) throw new UsageError(`${contradicted.join(', ')}: given a value and --reset at once; give one of them`);
  if (Object.keys(changes).length + Object.keys(resets).length === 0) {
    throw new UsageError('nothing to change: give the settings to change (such as --max-pages 500), or --reset <setting> for its default');
  }
  await withOperator(async (operator) => {
    const site = await operator.updateSite(name, { ...changes, ...resets });
    if (json) return void write(asJson(site));
    const config: Record<string, unknown> = site.config;
    const changed = [...Object.keys(changes), ...Object.keys(resets)].map((key) => `${key} ${formatSetting(config[key])}${key in resets ? ' (default)' : ''}`);
    write(`updated site ${site.name}: ${changed.join(', ')}\n${formatSites([site])}`);
  });
}

/** A setting's value as the update's summary says it: a list by its items, `[]` when empty. */
function formatSetting(value: unknown): string {
  if (Array.isArray(value)) return value.length > 0 ? value.join(' ') : '[]';
  return String(value);
}

/**
 * One line per site with what `sites add` can set and an operator needs to see at a glance: how
 * it is fetched, its budgets and pace, whether it may reach private addresses and reads sitemaps,
 * its template version with the pages a page type needs for a template and how often they are
 * prepared again, its seeds and the URLs it is held to (when its `allow` globs narrow it), and on a line of its own
 * what this version refuses in settings an earlier one stored.
 */
export function formatSites(sites: readonly Site[]): string {
  if (sites.length === 0) return 'no sites; add one with `winnow sites add <name> --seed <url>`\n';
  return sites
    .map((site) => {
      const { config } = site;
      const reach = [config.allowPrivateAddresses ? 'private addresses allowed' : 'public addresses only', config.sitemaps ? 'sitemaps' : 'no sitemaps'];
      const schedule = config.templateEveryMs === 0 ? 'no schedule' : `every ${duration(config.templateEveryMs)}`;
      return (
        `${site.name}\t${config.render}\tmax ${config.maxPages} URLs\tconcurrency ${config.concurrency}, delay ${config.delayMs} ms\t` +
        `${reach.join(', ')}\t${templatesOf(site.templateVersion)} (min ${config.minTemplatePages} pages a type, ${schedule})\t${config.seeds.join(' ')}${config.allow.length > 0 ? `\tallow ${config.allow.join(' ')}` : ''}\n` +
        (site.configProblem ? `  not crawled until fixed (\`winnow sites update ${site.name}\`): ${site.configProblem}\n` : '')
      );
    })
    .join('');
}

export async function sitesListCommand(flags: { json?: boolean }): Promise<void> {
  await withOperator(async (operator) => {
    const sites = await operator.listSites();
    write(flags.json ? asJson(sites) : formatSites(sites));
  });
}

/** What `sites remove` took away: `removed site news: 2 crawls, 140 pages, 3 template versions (5 templates), 138 index documents`. */
export function formatRemoved(removed: RemovedSite): string {
  const versions =
    removed.templateVersions === 0 ? 'no templates' : `${counted(removed.templateVersions, 'template version')} (${counted(removed.templates, 'template')})`;
  return `removed site ${removed.site}: ${counted(removed.crawls, 'crawl')}, ${counted(removed.pages, 'page')} with their extractions, ${versions}, ${counted(removed.documents, 'index document')}`;
}

export async function sitesRemoveCommand(name: string): Promise<void> {
  await withOperator(async (operator) => {
    const removed = await operator.removeSite(name);
    write(`${formatRemoved(removed)}\n`);
  });
}

/**
 * `winnow crawl <site>`: where workers run elsewhere (a shared Redis, or the API of `WINNOW_API_URL`)
 * the crawl is queued for them (and followed with `--wait`); with the embedded default the work
 * runs in this process, which waits until the crawl is crawled, templated, extracted and indexed.
 * `--stop` stops the site's crawl instead (what `POST /sites/:name/crawl/stop` does).
 */
export async function crawlCommand(name: string, flags: { wait?: boolean; stop?: boolean }): Promise<void> {
  if (flags.stop && flags.wait) throw new UsageError('--stop and --wait cannot be used together');
  await withOperator(
    async (operator) => {
      if (flags.stop) {
        const stopped = await operator.stopCrawl(name);
        if (!stopped) return void write(`${name} has no crawl queued or running\n`);
        const state = stopped.state === 'stopping' ? 'stopping: it ends once the URLs being fetched are done' : stopped.state;
        return void write(`crawl ${stopped.id} of ${name} ${state}; ${formatCrawlCounts(stopped.counts)}\n`);
      }
      const unfinished = await operator.unfinishedCrawl(name);
      if (unfinished) write(`resuming crawl ${unfinished.id} of ${name} (${unfinished.state}), left unfinished by an earlier command\n`);
      const crawl = unfinished ?? (await operator.startCrawl(name));
      if (!operator.runsWorkersHere && !flags.wait) return void write(`crawl ${crawl.id} of ${name} queued; follow it with \`winnow status\`\n`);
      await operator.follow([name]);
      const status = await operator.status();
      write(formatStatus(status, [name]));
      const ended = status.sites.find((site) => site.site === name)?.crawl;
      if (ended?.id === crawl.id && ended.state === 'failed') throw new Error(`crawl ${crawl.id} of ${name} failed: ${ended.error ?? 'no reason recorded'}`);
    },
    { follows: true },
  );
}

/** What an entry without a reason of its own was not stored for. */
const OUTCOME_REASON: Partial<Record<CrawlLogOutcome, string>> = {
  // Moves, removals and disallowed URLs log their own reason (the rule); entries logged by earlier versions have none.
  moved: 'redirected',
  gone: "the page is gone (404, 410, noindex, or now outside the site's globs or robots.txt)",
  disallowed: 'robots.txt disallows it',
  cancelled: 'the crawl was stopped before it was fetched',
};

/** What the URLs not admitted for each reason are, as `winnow status` (short) and the crawl log (in full) say it. */
const NOT_ADMITTED: Record<NotAdmittedReason, { short: (count: number) => string; full: (count: number) => string }> = {
  'outside-allowed': { short: (count) => `${count} outside the allowed URLs`, full: (count) => `${counted(count, 'URL')} outside the site's allowed URLs` },
  trap: {
    short: (count) => counted(count, 'crawler trap'),
    full: (count) => `${counted(count, 'URL')} refused as crawler traps (too long, or a path repeating a segment)`,
  },
  'sitemap-elsewhere': {
    short: (count) => `${counted(count, 'sitemap')} elsewhere`,
    full: (count) => `${counted(count, 'sitemap')} not on the site's own origins`,
  },
  'max-depth': {
    short: (count) => `${count} beyond maxDepth`,
    full: (count) => `${counted(count, 'URL')} linked from pages at the site's maxDepth, not followed`,
  },
  'max-pages': {
    short: (count) => `${count} over maxPages`,
    full: (count) => `the crawl's page budget (the site's maxPages) was reached: ${counted(count, 'more URL')} not admitted`,
  },
  'max-pages-per-pattern': {
    short: (count) => `${count} over maxPagesPerPattern`,
    full: (count) => `${counted(count, 'URL')} over the site's maxPagesPerPattern for their URL pattern`,
  },
  'max-sitemaps': {
    short: (count) => `${counted(count, 'sitemap')} over maxSitemaps`,
    full: (count) => `the crawl's sitemap budget (the site's maxSitemaps) was reached: ${counted(count, 'more sitemap')} not fetched`,
  },
};

/**
 * The crawl log as text: one line per URL, its crawl, outcome and reason, then where the page is
 * in the whole; then one line per reason the crawl did not admit URLs for, with their count and
 * a few of them (they are counted, not listed).
 */
export function formatCrawlLog(log: CrawlLogPage): string {
  const scope = `${log.outcomes.join(', ')} URLs of ${log.crawl === null ? `every crawl of ${log.site}` : `crawl ${log.crawl} of ${log.site}`}`;
  const skipped = log.notAdmitted.map(
    (count) => `crawl ${count.crawlId}\tnot admitted\t${NOT_ADMITTED[count.reason].full(count.urls)}\te.g. ${count.examples.join(' ')}\n`,
  );
  if (log.total === 0) return `no ${scope}\n${skipped.join('')}`;
  const lines = log.entries.map(
    (entry) =>
      `crawl ${entry.crawlId}\t${entry.outcome}\t${entry.kind === 'sitemap' ? '(sitemap) ' : entry.revisit ? '(revisit) ' : ''}${entry.url}\t${entry.reason ?? OUTCOME_REASON[entry.outcome] ?? ''}\n`,
  );
  return `${lines.join('')}${listingFooter(scope, log)}${skipped.join('')}`;
}

export async function crawlLogCommand(
  name: string,
  flags: { outcome?: string[]; crawl?: number; page?: number; size?: number; json?: boolean },
): Promise<void> {
  await withOperator(async (operator) => {
    const log = await operator.crawlLog(name, { outcomes: flags.outcome, crawl: flags.crawl, page: flags.page, size: flags.size });
    write(flags.json ? asJson(log) : formatCrawlLog(log));
  });
}

/** `<mark>` to reverse video on a terminal, to «» elsewhere; the entities `highlight` writes decoded. */
export function renderHighlight(fragment: string, tty: boolean): string {
  return fragment
    .replace(/<mark>/g, tty ? '\x1b[7m' : '«')
    .replace(/<\/mark>/g, tty ? '\x1b[27m' : '»')
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
}

export function formatSearch(query: string, result: SearchResult, tty: boolean): string {
  const first = (result.page - 1) * result.size + 1;
  let text = `${result.total}${result.totalRelation === 'gte' ? ' or more' : ''} page${result.total === 1 ? ' matches' : 's match'} ${query}${result.hits.length ? ` (showing ${first}-${first + result.hits.length - 1})` : ''}\n`;
  for (const hit of result.hits) {
    text += `\n${hit.title || '(no title)'} [${hit.site}]\n  ${hit.url}\n`;
    if (hit.alsoAtTotal > 0)
      text += `  also at ${hit.alsoAt.join(', ')}${hit.alsoAtTotal > hit.alsoAt.length ? ` and ${hit.alsoAtTotal - hit.alsoAt.length} more` : ''}\n`;
    for (const fragment of hit.highlights) text += `  ${renderHighlight(fragment, tty)}\n`;
  }
  return text;
}

/** `winnow search`; `shared` runs it on a runtime the caller already has open (the demo's). */
export async function searchCommand(query: string, flags: { site?: string; page?: number; size?: number; json?: boolean }, shared?: Runtime): Promise<void> {
  const run = async (operator: Operator) => {
    const result = await operator.search({ q: query, site: flags.site, page: flags.page, size: flags.size });
    write(flags.json ? asJson(result) : formatSearch(query, result, process.stdout.isTTY === true));
  };
  if (shared) await run((await import('../localOperator.js')).localOperator(shared));
  else await withOperator(run);
}

/**
 * A crawl's counts as every status line says them: each outcome by its name in `counts` (the
 * JSON's and the API's, and the crawl log's), then what is still open or was cancelled, then how
 * many of the pages fetched are indexed under another page (duplicates) and how many of those URLs
 * were revisits (pages no link reached), both counted under their outcomes too.
 */
export function formatCrawlCounts(counts: CrawlCounts): string {
  const parts = CRAWL_OUTCOMES.map((outcome) => `${counts[outcome]} ${outcome}`);
  if (counts.cancelled > 0) parts.push(`${counts.cancelled} cancelled`);
  if (counts.queued > 0) parts.push(`${counts.queued} queued`);
  if (counts.inFlight > 0) parts.push(`${counts.inFlight} in flight`);
  const notes = [];
  if (counts.duplicate > 0) notes.push(`${counted(counts.duplicate, 'duplicate')} indexed under another page`);
  if (counts.revisited > 0) notes.push(`${counted(counts.revisited, 'revisit')} of stored pages no link reached`);
  return parts.join(', ') + (notes.length > 0 ? ` (${notes.join(', ')})` : '');
}

/** A site's template version as its lines say it: `templates v3`, or that none was prepared yet (version 0). */
function templatesOf(version: number): string {
  return version > 0 ? `templates v${version}` : 'no templates yet';
}

/**
 * What `winnow status` prints: with `sites`, only their lines. Per site, its latest crawl's counts
 * (by outcome) and what it found and did not admit (by reason), then its pages as they stand
 * after every crawl so far (`stored`, `gone`, `extracted`, `indexed`, as in the JSON).
 */
export function formatStatus(status: PipelineStatus, sites?: readonly string[]): string {
  const lines: string[] = [];
  if (!sites && status.sites.length === 0) lines.push(...GETTING_STARTED);
  for (const site of status.sites.filter((candidate) => !sites || sites.includes(candidate.site))) {
    const { crawl } = site;
    if (crawl) {
      const unstored = CRAWL_LOG_OUTCOMES.some((outcome) => crawl.counts[outcome] > 0);
      const skipped = site.notAdmitted.map((count) => NOT_ADMITTED[count.reason].short(count.urls)).join(', ');
      lines.push(
        `${site.site}: crawl ${crawl.id} ${crawl.state}${crawl.error ? ` (${crawl.error})` : ''}: ${formatCrawlCounts(crawl.counts)}` +
          (skipped ? `; not admitted: ${skipped}` : '') +
          (unstored || skipped ? ` (why: winnow crawl-log ${site.site})` : ''),
      );
    } else lines.push(`${site.site}: never crawled`);
    lines.push(
      `  pages: ${site.stored} stored, ${site.gone} gone, ${site.duplicates} duplicates, ${site.extracted} extracted${extractionNotes(site)}, ${site.indexed} indexed; ${templatesOf(site.templateVersion)}; ` +
        `${site.failedExtract} failed to extract, ${site.failedIndex} failed to index`,
    );
  }
  if (!sites) {
    // An API older than the object store sends no `archive`.
    const { archive } = status;
    if (archive) {
      lines.push(
        `object store: ${archive.files} WARC files, ${megabytes(archive.bytes)}, ${archive.records} records; ${archive.staged} fetches waiting in Postgres for it`,
      );
    }
    // An API older than the reconciler sends no `reconciler`.
    if (status.reconciler) lines.push(formatReconcilerRun(status.reconciler));
    for (const [queue, counts] of Object.entries(status.queues)) {
      lines.push(`queue ${queue}: ${counts.waiting} waiting, ${counts.active} active, ${counts.delayed} delayed, ${counts.failed} failed`);
    }
    for (const job of status.failedJobs)
      lines.push(`failed job ${job.queue}#${job.id} ${JSON.stringify(job.payload)} after ${job.attempts} attempts: ${job.error}`);
    for (const page of status.failedPages) lines.push(`failed page ${page.url} (${page.stage}) after ${page.attempts} attempts: ${page.error}`);
  }
  return lines.map((line) => `${line}\n`).join('');
}

/** The reconciler's latest run in one line: when, why, and what it found and queued by kind (only the kinds it found). */
export function formatReconcilerRun(run: NonNullable<PipelineStatus['reconciler']>): string {
  const found = Object.entries(run.findings).filter(([, finding]) => finding.found > 0);
  const said =
    found.length === 0 ? 'nothing out of step' : `found ${found.map(([kind, { found: n, queued }]) => `${n} ${kind} (${queued} queued)`).join(', ')}`;
  // Dates arrive as strings through the API.
  return `reconciler: last run ${new Date(run.finishedAt).toISOString()} (${run.reason}): ${said}`;
}

const megabytes = (bytes: number) => `${(bytes / 1_000_000).toFixed(1)} MB`;

/** What `winnow status` says of a pipeline without sites: how to start. */
const GETTING_STARTED = [
  'no sites yet. To start:',
  '  winnow sites add <name> --seed <url>    a site to crawl (or many: winnow sites apply sites.yaml)',
  '  winnow crawl <name>                     crawl it, prepare its templates, extract and index its pages',
  '  winnow search \'"an exact phrase"\'       search what was indexed',
  '  winnow demo                             or see the whole pipeline run on bundled demo sites first',
];

export async function statusCommand(flags: { json?: boolean }): Promise<void> {
  await withOperator(async (operator) => {
    const status = await operator.status();
    write(flags.json ? asJson(status) : formatStatus(status));
  });
}

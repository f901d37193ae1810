import {
  addSite,
  crawlLog,
  exportSite,
  type CrawlLogPage,
  type CrawlLogParams,
  EmbeddedDatabaseBusyError,
  type HealthHistoryPage,
  type HealthHistoryParams,
  listSites,
  openCrawl,
  pageExtraction,
  pageExplanation,
  type PageExplanation,
  pipelineStatus,
  type RemovedSite,
  removeSite,
  replaceSite,
  requestTemplates,
  search,
  sitePages,
  type SitePages,
  type SitePagesParams,
  siteTemplates,
  type TemplateDiff,
  templateDiff,
  type TemplateDiffParams,
  templateHealthHistory,
  templateJob,
  templateVersion,
  type TemplateVersionView,
  startCrawl,
  stopCrawl,
  updateSite,
  type PipelineStatus,
  type Runtime,
  type SearchParams,
  type TemplateJob,
} from '@winnow/runtime';
import type { ExportFormat } from '@winnow/config';
import type { Crawl, PageExtraction, Site, TemplateSummary } from '@winnow/storage';
import { ApiClient, type SearchResult } from './apiClient.js';
import { closeAll, commandEnv, followPipeline, startWorkers, withRuntime } from './pipeline.js';
import { followProgress } from './progress.js';

/**
 * What the operator commands do to a pipeline, whether it is opened here (the database, Redis and
 * index of this machine's configuration) or reached through a running API (`WINNOW_API_URL`):
 * the commands are written once against this and print the same either way.
 */
export interface Operator {
  /** True when the pipeline's workers run only while this command runs them (embedded, a private Redis). */
  readonly runsWorkersHere: boolean;
  addSite(input: Record<string, unknown>): Promise<Site>;
  /** Applies a JSON merge patch to the site's configuration (`updateSite`); returns the site as stored. */
  updateSite(name: string, patch: Record<string, unknown>): Promise<Site>;
  listSites(): Promise<Site[]>;
  /** Removes a site with everything of it; says what was removed. */
  removeSite(name: string): Promise<RemovedSite>;
  /** Replaces a site's whole configuration (`PUT`): settings it leaves out take their defaults. */
  replaceSite(name: string, config: Record<string, unknown>): Promise<Site>;
  startCrawl(name: string): Promise<Crawl>;
  /**
   * The site's open crawl when the workers run only in this process (`runsWorkersHere`): nothing
   * else works on it, so it is one an interrupted command left, to be resumed. Undefined otherwise
   * (where workers run elsewhere, an open crawl is theirs).
   */
  unfinishedCrawl(name: string): Promise<Crawl | undefined>;
  /** Stops the site's queued or running crawl; undefined when it had none. */
  stopCrawl(name: string): Promise<Crawl | undefined>;
  crawlLog(name: string, params: CrawlLogParams): Promise<CrawlLogPage>;
  /** The site's pages with their extraction (`sitePages`). */
  sitePages(name: string, params: SitePagesParams): Promise<SitePages>;
  /** One page's extraction in full (`pageExtraction`); `site` when two sites crawled the URL. */
  page(url: string, site?: string): Promise<PageExtraction>;
  /** Why the page has its text: every line, kept or dropped, and the rule that decided. */
  explainPage(url: string, site?: string): Promise<PageExplanation>;
  /** Queues an analyst's template preparation; returns the job's id. */
  requestTemplates(name: string): Promise<string>;
  templateJob(name: string, id: string): Promise<TemplateJob>;
  listTemplates(site?: string): Promise<TemplateSummary[]>;
  /** One version of the site's templates in full, the current one unless `version` is given (`templateVersion`). */
  templateVersion(site: string, params: { version?: number | undefined; pageType?: string | undefined }): Promise<TemplateVersionView>;
  /** What changed in the site's templates between two versions (`templateDiff`). */
  templateDiff(site: string, params: TemplateDiffParams): Promise<TemplateDiff>;
  /** The site's page types' health records, newest first, paged (`templateHealthHistory`). */
  templateHealth(site: string, params: HealthHistoryParams): Promise<HealthHistoryPage>;
  search(params: SearchParams): Promise<SearchResult>;
  /** A site's export as it is read (`exportSite`); consumed before the operator is closed. */
  exportSite(name: string, format: ExportFormat): Promise<AsyncIterable<string | Uint8Array>>;
  status(): Promise<PipelineStatus>;
  /** Waits until the pipeline is idle, with progress bars on stderr; runs the workers meanwhile when they run nowhere else. */
  follow(sites: readonly string[]): Promise<void>;
}

/** The pipeline opened in this process. */
export function localOperator(rt: Runtime): Operator {
  return {
    runsWorkersHere: rt.privateRedis,
    addSite: (input) => addSite(rt, input),
    updateSite: (name, patch) => updateSite(rt, name, patch),
    listSites: () => listSites(rt.db),
    removeSite: (name) => removeSite(rt, name),
    replaceSite: (name, config) => replaceSite(rt, name, config),
    startCrawl: (name) => startCrawl(rt, name),
    unfinishedCrawl: async (name) => (rt.privateRedis ? openCrawl(rt, name) : undefined),
    stopCrawl: (name) => stopCrawl(rt, name),
    crawlLog: (name, params) => crawlLog(rt, name, params),
    sitePages: (name, params) => sitePages(rt, name, params),
    page: (url, site) => pageExtraction(rt, { url, site }),
    explainPage: (url, site) => pageExplanation(rt, { url, site }),
    requestTemplates: async (name) => (await requestTemplates(rt, name)).job,
    templateJob: (name, id) => templateJob(rt, name, id),
    listTemplates: (site) => siteTemplates(rt, site),
    templateVersion: (site, params) => templateVersion(rt, site, params),
    templateDiff: (site, params) => templateDiff(rt, site, params),
    templateHealth: (site, params) => templateHealthHistory(rt, site, params),
    search: (params) => search(rt, params),
    exportSite: async (name, format) => (await exportSite(rt, name, format)).chunks,
    status: () => pipelineStatus(rt),
    follow: async (sites) => {
      const services = rt.privateRedis ? await startWorkers(rt) : [];
      try {
        await followPipeline(rt, sites);
      } finally {
        await closeAll(services);
      }
    },
  };
}

/** How often a crawl followed through the API is polled: each poll reads the whole status. */
const REMOTE_POLL_MS = 1000;

/** A pipeline whose workers run elsewhere, reached through its HTTP API. */
export function remoteOperator(client: ApiClient): Operator {
  return {
    runsWorkersHere: false,
    addSite: (input) => client.addSite(input),
    updateSite: (name, patch) => client.updateSite(name, patch),
    listSites: () => client.listSites(),
    removeSite: (name) => client.removeSite(name),
    replaceSite: (name, config) => client.replaceSite(name, config),
    startCrawl: (name) => client.startCrawl(name),
    unfinishedCrawl: async () => undefined,
    stopCrawl: (name) => client.stopCrawl(name),
    crawlLog: (name, params) => client.crawlLog(name, params),
    sitePages: (name, params) => client.sitePages(name, params),
    page: (url, site) => client.page(url, site),
    explainPage: (url, site) => client.explainPage(url, site),
    requestTemplates: (name) => client.requestTemplates(name),
    templateJob: (name, id) => client.templateJob(name, id),
    listTemplates: (site) => client.listTemplates(site),
    templateVersion: (site, params) => client.templateVersion(site, params),
    templateDiff: (site, params) => client.templateDiff(site, params),
    templateHealth: (site, params) => client.templateHealth(site, params),
    search: (params) => client.search(params),
    exportSite: (name, format) => client.exportSite(name, format),
    status: () => client.status(),
    follow: (sites) =>
      followProgress(
        {
          isIdle: () => client.isIdle(),
          progress: async (followed) => {
            const counted = (await client.status()).sites.filter((site) => !followed || followed.includes(site.site));
            const sum = (stage: 'stored' | 'extracted' | 'indexed' | 'duplicates') => counted.reduce((total, site) => total + site[stage], 0);
            return { stored: sum('stored'), extracted: sum('extracted'), indexed: sum('indexed'), duplicates: sum('duplicates') };
          },
        },
        sites,
        REMOTE_POLL_MS,
      ),
  };
}

/**
 * Runs an operator command: through the API at `WINNOW_API_URL` when it is set, else on the
 * pipeline opened here (closed afterwards). When the embedded database is held by another
 * process (such as `winnow up`), the error says how to use that process's API instead (the address
 * that process noted), or, when it noted none, that it serves none and how to get the database back.
 */
export async function withOperator<T>(work: (operator: Operator) => Promise<T>): Promise<T> {
  const env = commandEnv();
  if (env.WINNOW_API_URL) return work(remoteOperator(new ApiClient(env.WINNOW_API_URL, env.WINNOW_API_TOKEN)));
  try {
    return await withRuntime((rt) => work(localOperator(rt)));
  } catch (error) {
    if (!(error instanceof EmbeddedDatabaseBusyError)) throw error;
    if (error.apiUrl === undefined) {
      // A holder that noted no API serves none (a command such as `winnow crawl`), or has not started it yet.
      throw new EmbeddedDatabaseBusyError(
        `${error.message}; it serves no API (a command such as \`winnow crawl\`, or a \`winnow up\` still starting): wait for it to end, or interrupt it (Ctrl-C): the next \`winnow crawl <site>\` resumes a crawl it leaves unfinished`,
      );
    }
    throw new EmbeddedDatabaseBusyError(
      `${error.message}; to use its API from this command, set WINNOW_API_URL=${error.apiUrl} (and WINNOW_API_TOKEN to one of its operate tokens)`,
      error.apiUrl,
    );
  }
}

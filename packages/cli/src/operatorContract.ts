import type {
  CrawlLogPage,
  CrawlLogParams,
  HealthHistoryPage,
  HealthHistoryParams,
  RemovedSite,
  SitePages,
  SitePagesParams,
  TemplateDiff,
  TemplateDiffParams,
  TemplateVersionView,
  PipelineStatus,
  PageExplanation,
  SearchParams,
  TemplateJob,
} from '@winnow/runtime';
import type { ExportFormat } from '@winnow/config';
import type { Crawl, PageExtraction, Site, TemplateSummary } from '@winnow/storage';
import type { SearchResult } from './apiClient.js';

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

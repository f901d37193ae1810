export { openDb, type Db, type DbOptions, type Queryable } from './db.js';
export { migrate, MIGRATIONS_DIR } from './migrate.js';
export {
  deleteSite,
  findSite,
  findSiteById,
  insertSite,
  listSiteNames,
  listSites,
  setTemplateVersion,
  SiteExistsError,
  updateSiteConfig,
  type Site,
} from './sites.js';
export { contentHash, loadRawPage, storeRawPage } from './rawPages.js';
export {
  activeCrawl,
  CrawlActiveError,
  failCrawl,
  findCrawl,
  insertCrawl,
  latestCrawl,
  openCrawlIds,
  requestCrawlStop,
  settleCrawl,
  startQueuedCrawl,
  type Crawl,
  type CrawlCounts,
  type CrawlState,
} from './crawls.js';
export {
  admitUrls,
  type Completion,
  completeUrls,
  knownPageUrls,
  leaseUrls,
  releaseLeases,
  renewLeases,
  requeueUrl,
  type AdmissionLimits,
  type FrontierEntry,
  type FrontierKind,
  type FrontierOutcome,
  type LeasedUrl,
} from './frontier.js';
export {
  countStoredPages,
  findPage,
  findPageByUrl,
  listStoredPages,
  markPageGone,
  pagePresence,
  previousFetch,
  storeFetchedPage,
  touchPage,
  upsertFetchedPage,
  type FetchRecord,
  type Page,
  type PreviousFetch,
} from './pages.js';
export {
  currentTemplates,
  currentTemplateShapes,
  findTemplate,
  healthHistory,
  insertTemplateVersion,
  listTemplates,
  type NewTemplate,
  recordTemplateHealth,
  type StoredTemplate,
  type TemplateChanges,
  type TemplateHealth,
  templateHealth,
  type TemplateShape,
  type TemplateSummary,
} from './templates.js';
export { findExtraction, indexablePages, pagesToExtract, saveExtraction, type Extraction, type IndexablePage, unextractedPages } from './extractions.js';
export { clearPageFailure, listPageFailures, recordPageFailure, siteCounts, type PageFailure, type SiteCounts, type Stage } from './failures.js';

export { createLogger } from './logger.js';
export { announceApi, apiUrlFor, EmbeddedDatabaseBusyError, openRuntime, type Runtime, type RuntimeOptions } from './runtime.js';
export {
  addSite,
  CRAWL_LOG_PAGE_SIZE,
  crawlLog,
  crawlStatus,
  openCrawl,
  InvalidRequestError,
  isIdle,
  listSites,
  MAX_PAGE_SIZE,
  pipelineStatus,
  type RemovedSite,
  removeSite,
  replaceSite,
  requireSite,
  search,
  SiteNotFoundError,
  startCrawl,
  stopCrawl,
  recrawlScheduleId,
  syncSchedules,
  templateScheduleId,
  updateSite,
  waitForIdle,
  type CrawlLogPage,
  type CrawlLogParams,
  type PipelineStatus,
  type SearchParams,
  type SiteStatus,
} from './operations.js';
export { PAGES_PAGE_SIZE, PageNotFoundError, type PageParams, pageExtraction, type SitePages, type SitePagesParams, sitePages } from './pages.js';
export {
  HEALTH_PAGE_SIZE,
  type HealthHistoryPage,
  type HealthHistoryParams,
  requestTemplates,
  siteTemplates,
  type TemplateJob,
  templateHealthHistory,
  templateJob,
} from './templates.js';
export { FINDING_KINDS, type FindingKind, reconcile, type ReconcileReason, startReconciler } from './reconciler.js';
export { type Readiness, readiness } from './health.js';
export { startWorkerPort, type WorkerPort } from './workerPort.js';
export { exportFormat, exportSite, type SiteExport } from './export.js';
export { keepPageFailure, runStandalone, type Service, serve } from './service.js';
export { startPipelineWorker } from './jobs.js';
export { isUnavailable, whileUnavailable } from './retry.js';
export { CpuPool } from './cpu/pool.js';
export type { ExtractTask, PrepareTask } from './cpu/tasks.js';
export { type ComparedTemplate, templateChanges } from './templateChanges.js';
export {
  type PageTypeDiff,
  type TemplateDetail,
  type TemplateDiff,
  templateDiff,
  type TemplateDiffParams,
  templateVersion,
  type TemplateVersionView,
} from './templateVersions.js';
export { type Activity, type ActivityLog, describeActivity, startActivityLog } from './activity.js';
export { pipelineState } from './pipelineState.js';
export { inspectedPage, type PageExplanation, pageExplanation, type ReadingDiffLine } from './explain.js';
export { retryFailedJob } from './failedJobs.js';
export { type HostView, hostsView } from './hosts.js';

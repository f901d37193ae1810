export { openDb, type Db, type DbOptions, type Queryable } from './db.js';
export { migrate, MIGRATIONS_DIR } from './migrate.js';
export { deleteSite, findSite, findSiteById, insertSite, listSites, setTemplateVersion, SiteExistsError, updateSiteConfig, type Site } from './sites.js';
export { contentHash, loadRawPage, storeRawPage } from './rawPages.js';
export { activeCrawl, countCrawlPage, CrawlActiveError, findCrawl, finishCrawl, insertCrawl, latestCrawl, markCrawlRunning, requestCrawlStop, type Crawl, type CrawlState } from './crawls.js';
export { countStoredPages, findPage, findPageByUrl, listStoredPages, upsertFetchedPage, type FetchRecord, type Page } from './pages.js';
export { currentTemplates, currentTemplateShapes, findTemplate, insertTemplateVersion, listTemplates, type NewTemplate, type StoredTemplate, type TemplateShape, type TemplateSummary } from './templates.js';
export { findExtraction, indexablePages, pagesToExtract, saveExtraction, type Extraction, type IndexablePage } from './extractions.js';
export { clearPageFailure, listPageFailures, recordPageFailure, siteCounts, type PageFailure, type SiteCounts, type Stage } from './failures.js';

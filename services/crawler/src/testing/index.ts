export { crawlToEnd } from './crawlToEnd.js';
export { assertCrawlDelayOfOneSecondKept } from './crawlDelay.js';
export { type GeneratedSite, type GeneratedSiteOptions, type SeenRequest, serveGeneratedSite, smallestGap } from './generatedSite.js';

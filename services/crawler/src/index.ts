export { Crawler, type CrawlerOptions, startCrawler } from './crawler.js';
export { FetchError, Fetcher, type FetchedResponse, type FetcherOptions, type Resolve } from './fetcher.js';
export { normalizeUrl, trapReason } from './urls.js';
export { type HostPace, Politeness } from './politeness.js';

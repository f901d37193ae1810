export { Crawler, type CrawlerOptions, startCrawler } from './crawler.js';
export { FetchError, Fetcher, type FetchedResponse, type FetcherOptions, type Resolve } from './fetcher.js';
export { type HostPace, Politeness } from './politeness.js';

export { benchCrawlCommand, type CrawlBenchFlags } from './crawlBench.js';
export { benchIndexCommand, type IndexBenchFlags } from './indexBench.js';

export { benchCliCommand, type CliBenchFlags } from './cliBench.js';
export { benchCrawlCommand, type CrawlBenchFlags } from './crawlBench.js';
export { benchIndexCommand, type IndexBenchFlags } from './indexBench.js';

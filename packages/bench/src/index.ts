export { benchCliCommand, type CliBenchFlags } from './cliBench.js';
export { benchCrawlCommand, type CrawlBenchFlags } from './crawlBench.js';
export { benchIndexCommand, type IndexBenchFlags } from './indexBench.js';
export { benchFrontierCommand, type FrontierBenchFlags, type FrontierCosts, measureFrontier } from './frontierBench.js';
export { benchCapacityCommand, type CapacityBenchFlags, type CapacityCosts, measureCapacity } from './capacityBench.js';

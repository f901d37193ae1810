export { HoldingIndex, type HeldWrite } from './holdingIndex.js';
export { elasticsearchForTests, LAUNCHER, startLocalElasticsearch, type LocalElasticsearch, type LocalElasticsearchOptions } from './localElasticsearch.js';

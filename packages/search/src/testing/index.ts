export { elasticsearchForTests, LAUNCHER, startLocalElasticsearch, type LocalElasticsearch, type LocalElasticsearchOptions } from './localElasticsearch.js';

export { testDocument } from './documents.js';
export { HoldingIndex, type HeldWrite } from './holdingIndex.js';
export {
  elasticsearchForTests,
  LAUNCHER,
  startLocalElasticsearch,
  startLocalElasticsearchCluster,
  type LocalElasticsearch,
  type LocalElasticsearchCluster,
  type LocalElasticsearchNode,
  type LocalElasticsearchOptions,
} from './localElasticsearch.js';

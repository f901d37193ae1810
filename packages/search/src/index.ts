export { highlight, matcherFor } from './highlight.js';
export { PostgresSearchIndex } from './postgresIndex.js';
export { bridgesOf } from './readPast.js';
export { CHARACTER_WORDS, indexedWords, MAX_QUERY_LENGTH, parseQuery, QueryError, wordsOf, type ParsedQuery } from './query.js';
export {
  documentIdFor,
  MAX_RESULT_WINDOW,
  SearchIndexError,
  type IndexDocument,
  type SearchHit,
  type SearchIndex,
  type SearchRequest,
  type SearchResponse,
} from './searchIndex.js';
export { DOCUMENT_SCHEME, ElasticsearchIndex, INDEX_BODY, type ElasticsearchIndexOptions } from './elasticsearchIndex.js';

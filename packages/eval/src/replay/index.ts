/**
 * The replay harness's pure parts: a dataset site laid out as a website, the exact-phrase samples,
 * the layer and cause of each miss, the report's shape and its text. The crawl itself (serving the
 * sites, the embedded pipeline, the searches) is `winnow eval --replay` in the CLI.
 */
export { PATH_RULES, ownCanonical, siteLayout, siteSlug, type LayoutOptions, type PathRule, type ServedPage, type SiteLayout } from './layout.js';
export {
  boilerplateMatchCause,
  countContentMiss,
  explainContentMiss,
  MISS_LAYERS,
  noCounts,
  searchRates,
  searchTextHolds,
  sumCounts,
  type ContentMiss,
  type MissLayer,
  type PhraseCounts,
  type ReplayedPage,
  type SearchRates,
} from './misses.js';
export { PHRASE_KINDS, randomFrom, samplePhrases, type Phrase, type PhraseKind, type SampledPhrases, type SamplePage } from './phrases.js';
export { around, holdsRun, linkTexts, padded, readerWords } from './readerWords.js';
export {
  countBy,
  formatPagesReport,
  formatSearchReport,
  summarisePages,
  sumSites,
  type ReplayPageResult,
  type ReplayReport,
  type ReplaySiteInfo,
  type ReplaySummary,
  type SearchedPhrase,
  type SearchReport,
} from './report.js';

/** What became of a URL of a crawl's frontier. */
export type FrontierOutcome = 'stored' | 'unchanged' | 'refused' | 'failed' | 'moved' | 'gone' | 'disallowed' | 'read';

/**
 * The outcomes a crawl's counts name (`CrawlCounts`), in the order every status line says them.
 * This module holds constants only (`@winnow/storage/outcomes`), so that the command line's help
 * and its output formats name them without loading the database drivers.
 */
export const CRAWL_OUTCOMES = ['stored', 'unchanged', 'moved', 'gone', 'refused', 'disallowed', 'failed'] as const satisfies readonly FrontierOutcome[];
export type CrawlOutcome = (typeof CRAWL_OUTCOMES)[number];

/**
 * What the crawl log lists, by the names of `CrawlCounts`: URLs a crawl did not store, by outcome,
 * URLs a stop cancelled, and URLs it fetched that are indexed under another page of their site
 * (`duplicate`: a canonical link or the same body). Other stored and unchanged pages are in the
 * store itself.
 */
export const CRAWL_LOG_OUTCOMES = ['moved', 'gone', 'refused', 'disallowed', 'failed', 'cancelled', 'duplicate'] as const;
export type CrawlLogOutcome = (typeof CRAWL_LOG_OUTCOMES)[number];

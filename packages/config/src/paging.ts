/** Entries a listing (search hits, the crawl log, a site's pages) answers per page at most, in the API and the CLI alike. */
export const MAX_PAGE_SIZE = 100;

/** What `winnow export` and `GET /sites/:name/export` write: the cleaned text as JSON lines or CSV, or the fetches as a WARC file. */
export const EXPORT_FORMATS = ['jsonl', 'csv', 'warc'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

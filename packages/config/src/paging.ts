/** Entries a listing (search hits, the crawl log, a site's pages) answers per page at most, in the API and the CLI alike. */
export const MAX_PAGE_SIZE = 100;

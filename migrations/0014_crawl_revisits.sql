-- A crawl starts from its seeds (and sitemaps) alone, and follows links under the site's current
-- settings; the pages the site has that no link of the crawl reached are admitted only once nothing
-- else of it is left (revisited for changes, removals and moves, their links not followed), once
-- per crawl: `revisits_admitted` says it was done, and a running crawl does not end before.
-- Crawls that began before this admitted the site's pages at their start.
ALTER TABLE crawls ADD COLUMN revisits_admitted boolean NOT NULL DEFAULT false;
UPDATE crawls SET revisits_admitted = true WHERE state <> 'queued';

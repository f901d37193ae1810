-- URLs a crawl found and did not admit to its frontier, counted per crawl and reason instead of a
-- row each (a large site links outside its allowed URLs from every page), with a few of them as
-- examples: what answers "why was this page not crawled" when the frontier has no row for it.
-- Refused by the site's rules: outside-allowed (its globs), trap (the trap guards),
-- sitemap-elsewhere (a sitemap not on the site's origins); left out by a budget: max-pages,
-- max-pages-per-pattern, max-sitemaps. first_at is when the first was not admitted (for a budget,
-- when the crawl reached it).
CREATE TABLE not_admitted (
  crawl_id integer NOT NULL REFERENCES crawls (id) ON DELETE CASCADE,
  reason text NOT NULL CHECK (reason IN ('outside-allowed', 'trap', 'sitemap-elsewhere', 'max-pages', 'max-pages-per-pattern', 'max-sitemaps')),
  urls integer NOT NULL,
  examples text[] NOT NULL,
  first_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (crawl_id, reason)
);

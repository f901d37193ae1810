-- A crawl's sitemap rows, counted against its site's maxSitemaps each time sitemaps are admitted:
-- a few hundred rows at most, among a crawl's many pages.
CREATE INDEX frontier_crawl_sitemaps ON frontier (crawl_id) WHERE kind = 'sitemap';

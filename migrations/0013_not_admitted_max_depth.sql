-- Links found on a page at the site's maxDepth are not followed: they are counted in the crawl
-- log too, under max-depth (those the crawl had not admitted already, nearer the seeds).
ALTER TABLE not_admitted DROP CONSTRAINT not_admitted_reason_check;
ALTER TABLE not_admitted ADD CONSTRAINT not_admitted_reason_check
  CHECK (reason IN ('outside-allowed', 'trap', 'sitemap-elsewhere', 'max-depth', 'max-pages', 'max-pages-per-pattern', 'max-sitemaps'));

-- A page whose document another page of its site stands for: the URL of that page. Set by the
-- indexer (resolveDuplicates in packages/storage/src/pages.ts), which writes no document for such a
-- page: it names another page of the site as canonical, or its body is byte-identical to another
-- page's. NULL for a page indexed under its own URL, or one without a body.
ALTER TABLE pages ADD COLUMN duplicate_of text;

-- What deciding a page's duplicates looks up: pages of the same body, pages naming it canonical,
-- and pages that were its duplicates.
CREATE INDEX pages_content_hash ON pages (site_id, content_hash) WHERE content_hash IS NOT NULL;
CREATE INDEX pages_canonical_url ON pages (site_id, canonical_url) WHERE canonical_url IS NOT NULL;
CREATE INDEX pages_duplicate_of ON pages (site_id, duplicate_of) WHERE duplicate_of IS NOT NULL;

-- Why a page is a duplicate (resolveDuplicates): it names the page that stands for it as its
-- canonical URL, or its body is byte-identical to that page's. NULL when it is no duplicate.
ALTER TABLE pages ADD COLUMN duplicate_by text CHECK (duplicate_by IN ('canonical', 'same-body'));
UPDATE pages SET duplicate_by = CASE WHEN canonical_url = duplicate_of THEN 'canonical' ELSE 'same-body' END WHERE duplicate_of IS NOT NULL;

-- What the indexer decided of a URL a crawl fetched (stored, or found unchanged): indexed under
-- another page of the site (its URL, and why), so that the crawl log lists the URLs a crawl fetched
-- that have no document of their own. Written when the indexer decides for the page the crawl last
-- fetched (and copied from the page when a crawl finds it unchanged, which decides nothing anew);
-- an older crawl's rows keep what was decided of its fetch.
ALTER TABLE frontier ADD COLUMN duplicate_of text;
ALTER TABLE frontier ADD COLUMN duplicate_by text CHECK (duplicate_by IN ('canonical', 'same-body'));
UPDATE frontier f SET duplicate_of = p.duplicate_of, duplicate_by = p.duplicate_by
  FROM pages p
 WHERE p.id = f.page_id AND p.crawl_id = f.crawl_id AND f.outcome IN ('stored', 'unchanged') AND p.duplicate_of IS NOT NULL;

-- Index documents are keyed by site and URL (documentIdFor in packages/search/src/searchIndex.ts:
-- the first 32 hex digits of SHA-256 of the site name, a newline, and the URL). Under the old key,
-- the URL alone, two sites that crawled the same URL shared one document: the last one written
-- won it, and removing either site removed it. Runs once, inside the migration transaction; on an
-- installation that indexes into Elasticsearch this table is empty and nothing changes.

-- Documents whose page no longer exists, or no longer belongs to that site and URL, are left over
-- from removed sites (the old removal could race with the indexer): no search may find them.
DELETE FROM search_documents d
 WHERE NOT EXISTS (
   SELECT 1 FROM pages p JOIN sites s ON s.id = p.site_id
    WHERE p.id = d.page_id AND p.url = d.url AND s.name = d.site
 );

-- Re-key the rest. Every (site, URL) pair is unique here (the URL alone was), so the new ids are too.
UPDATE search_documents
   SET doc_id = substr(encode(sha256(convert_to(site || E'\n' || url, 'UTF8')), 'hex'), 1, 32);

-- The pages that lost their document to another site's page with the same URL get theirs back,
-- from their current extraction, as the indexer would write it. Only where the table is in use:
-- the other site's document is there.
INSERT INTO search_documents (doc_id, page_id, site, url, title, main_text, template_version, extracted_at)
SELECT substr(encode(sha256(convert_to(s.name || E'\n' || p.url, 'UTF8')), 'hex'), 1, 32),
       p.id, s.name, p.url, coalesce(e.title, ''), e.main_text, e.template_version, e.extracted_at
  FROM extractions e JOIN pages p ON p.id = e.page_id JOIN sites s ON s.id = p.site_id
 WHERE EXISTS (SELECT 1 FROM search_documents d WHERE d.url = p.url AND d.site <> s.name)
ON CONFLICT (doc_id) DO NOTHING;

-- The indexer removes the documents of pages that vanished while it wrote them (a removed site's).
CREATE INDEX search_documents_page ON search_documents (page_id);

COMMENT ON COLUMN search_documents.doc_id IS 'documentIdFor(site, url): stable per site and URL';

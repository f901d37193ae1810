-- The search index's title is the article's headline (`articleHeadline`); the page's `<title>`,
-- the site's name included, stays a field of its own. Extractions made before keep a NULL
-- headline, and their documents the `<title>` as title, until the page is extracted again.
ALTER TABLE extractions ADD COLUMN headline text;
ALTER TABLE search_documents ADD COLUMN page_title text NOT NULL DEFAULT '';
UPDATE search_documents SET page_title = title;

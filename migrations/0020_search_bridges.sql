-- A quoted phrase also matches across one or two short lines that interrupt the article's text
-- (a caption, a photo credit, a dateline: `bridgesOf` in packages/search/src/readPast.ts). The
-- indexer stores each document's bridges, their words as `indexedWords` writes them, one space
-- apart, bridges separated by ' | ' and the whole padded with spaces, so that `LIKE '% words %'`
-- finds a phrase inside one bridge and never across two; '' when it has none. Rows indexed before
-- this hold NULL until the search index's start (`PostgresSearchIndex.ensureReady`) computes
-- theirs, which the partial index finds without reading the table.
ALTER TABLE search_documents ADD COLUMN bridge_words text;
CREATE INDEX search_documents_without_bridges ON search_documents (doc_id) WHERE bridge_words IS NULL;

-- The index matched a phrase typed as the page shows it only where Postgres's text-search parser
-- cut the text where the queries cut it, and it often did not: `non-tech` was three words, `1.15`
-- one, `etsy.com` a host, `ABT-263` a word and a negative number, so a phrase running through
-- them never matched, nor, on a server whose locale does not know them, did any phrase of
-- Cyrillic or Greek. The indexer now stores each document's words as the queries read them
-- (`indexedWords` in packages/search/src/query.ts: runs of letters and digits, each Han or
-- Hiragana character a word, lower-cased, final sigma as sigma), one space apart, and the tsvector
-- and norm_text are made of those. Rows indexed before this get the nearest SQL reading, until
-- their pages are indexed again.
ALTER TABLE search_documents ADD COLUMN title_words text, ADD COLUMN main_words text;
UPDATE search_documents SET
  title_words = translate(trim(regexp_replace(lower(search_spaced_characters(title)), '[^[:alnum:]]+', ' ', 'g')), 'ς', 'σ'),
  main_words = translate(trim(regexp_replace(lower(search_spaced_characters(main_text)), '[^[:alnum:]]+', ' ', 'g')), 'ς', 'σ');
ALTER TABLE search_documents ALTER COLUMN title_words SET NOT NULL, ALTER COLUMN main_words SET NOT NULL;

DROP INDEX search_documents_vector;
ALTER TABLE search_documents DROP COLUMN search_vector, DROP COLUMN norm_text;
DROP FUNCTION search_spaced_characters(text);
ALTER TABLE search_documents
  ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (to_tsvector('simple', title_words || ' ' || main_words)) STORED,
  ADD COLUMN norm_text text GENERATED ALWAYS AS (' ' || main_words || ' ') STORED;
CREATE INDEX search_documents_vector ON search_documents USING gin (search_vector);

-- Han ideographs and Hiragana are written without spaces between words: the 'simple' parser took a
-- whole clause (北京明天天气晴朗) for one word, and no search for a word inside it (北京) could
-- match. Each such character is now a word of its own, as Elasticsearch's standard tokenizer reads
-- them, in the tsvector and in norm_text alike. The character ranges are CHARACTER_WORDS of
-- packages/search/src/query.ts, which cuts queries the same way.
--
-- search_spaced_characters puts spaces around each such character: the one place the SQL side
-- cuts them (a function body in SQL-standard form: Postgres 14 or later).
CREATE FUNCTION search_spaced_characters(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN regexp_replace($1, '([\u3005\u3007\u3021-\u3029\u3038-\u303b\u3041-\u3096\u309d-\u309f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f])', ' \1 ', 'g');

DROP INDEX search_documents_vector;
ALTER TABLE search_documents DROP COLUMN search_vector, DROP COLUMN norm_text;
ALTER TABLE search_documents
  ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (to_tsvector('simple', search_spaced_characters(title || ' ' || main_text))) STORED,
  ADD COLUMN norm_text text GENERATED ALWAYS AS (
    ' ' || lower(trim(regexp_replace(search_spaced_characters(main_text), '[^[:alnum:]]+', ' ', 'g'))) || ' ') STORED;
CREATE INDEX search_documents_vector ON search_documents USING gin (search_vector);

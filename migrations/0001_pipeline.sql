-- The pipeline's tables. Ids are 32-bit serials: both pg and PGlite return them as numbers.

CREATE TABLE sites (
  id serial PRIMARY KEY,
  name text NOT NULL UNIQUE,
  config jsonb NOT NULL,
  -- The template version extraction uses now; 0 until the first preparation.
  template_version integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Every fetched body, stored once however many URLs or fetches returned it.
CREATE TABLE raw_pages (
  content_hash text PRIMARY KEY,
  body bytea NOT NULL,
  byte_length integer NOT NULL,
  stored_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE crawls (
  id serial PRIMARY KEY,
  site_id integer NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
  state text NOT NULL CHECK (state IN ('queued', 'running', 'stopping', 'stopped', 'finished', 'failed')),
  pages_stored integer NOT NULL DEFAULT 0,
  pages_rejected integer NOT NULL DEFAULT 0,
  error text,
  requested_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz
);
CREATE INDEX crawls_site ON crawls (site_id, id DESC);

-- One row per URL of a site: its latest fetch. A fetch that was refused (oversized, not HTML,
-- HTTP error) keeps its status and reason in fetch_error and has no body.
CREATE TABLE pages (
  id serial PRIMARY KEY,
  site_id integer NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
  url text NOT NULL,
  crawl_id integer REFERENCES crawls (id) ON DELETE SET NULL,
  status integer,
  headers jsonb NOT NULL DEFAULT '{}',
  content_type text,
  content_hash text REFERENCES raw_pages (content_hash),
  fetch_error text,
  fetched_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (site_id, url)
);

-- Versioned templates: one row per page-type cluster per preparation run of a site.
CREATE TABLE templates (
  id serial PRIMARY KEY,
  site_id integer NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
  version integer NOT NULL,
  cluster text NOT NULL,
  url_patterns text[] NOT NULL,
  -- The cluster's structural signature: its pages' usual block paths.
  signature jsonb NOT NULL,
  template jsonb NOT NULL,
  sample_size integer NOT NULL,
  page_count integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (site_id, version, cluster)
);

-- A page's latest extraction, of the body named by content_hash.
CREATE TABLE extractions (
  page_id integer PRIMARY KEY REFERENCES pages (id) ON DELETE CASCADE,
  content_hash text NOT NULL,
  method text NOT NULL,
  template_id integer REFERENCES templates (id) ON DELETE SET NULL,
  template_version integer,
  title text,
  blocks jsonb NOT NULL,
  main_text text NOT NULL,
  warnings jsonb NOT NULL DEFAULT '[]',
  -- Set when the page was read without a template: extract it again once one exists.
  needs_reextract boolean NOT NULL DEFAULT false,
  extracted_at timestamptz NOT NULL DEFAULT now()
);

-- Pages a stage gave up on after its last retry, with the error, until a later run succeeds.
CREATE TABLE page_failures (
  page_id integer NOT NULL REFERENCES pages (id) ON DELETE CASCADE,
  stage text NOT NULL CHECK (stage IN ('extract', 'index')),
  error text NOT NULL,
  attempts integer NOT NULL,
  failed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (page_id, stage)
);

-- The Postgres full-text search index (the embedded default). doc_id is stable per URL.
-- norm_text holds the words of the main text, lower-cased, one space apart and padded, so that a
-- quoted phrase can be checked exactly on word boundaries after the tsquery has found candidates.
CREATE TABLE search_documents (
  doc_id text PRIMARY KEY,
  page_id integer NOT NULL,
  site text NOT NULL,
  url text NOT NULL,
  title text NOT NULL DEFAULT '',
  main_text text NOT NULL,
  template_version integer,
  extracted_at timestamptz NOT NULL,
  indexed_at timestamptz NOT NULL DEFAULT now(),
  search_vector tsvector GENERATED ALWAYS AS (to_tsvector('simple', title || ' ' || main_text)) STORED,
  norm_text text GENERATED ALWAYS AS (' ' || lower(trim(regexp_replace(main_text, '[^[:alnum:]]+', ' ', 'g'))) || ' ') STORED
);
CREATE INDEX search_documents_vector ON search_documents USING gin (search_vector);
CREATE INDEX search_documents_site ON search_documents (site);

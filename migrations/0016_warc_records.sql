-- Fetched pages as WARC records in an S3-compatible object store (WINNOW_S3_BUCKET; see
-- docs/object-store.md). A fetch to archive is staged here in the statement that stores its page:
-- its body stays in raw_pages. Once the WARC file holding its records is uploaded, the row says
-- where its record is (file, offset, length) and the body leaves raw_pages (body NULL): the object
-- store holds it from then on. With Postgres bodies (the embedded default) these tables stay empty.
ALTER TABLE raw_pages ALTER COLUMN body DROP NOT NULL;

-- One WARC file in the object store, written once and never changed (its key is its SHA-256).
CREATE TABLE warc_files (
  id serial PRIMARY KEY,
  object_key text NOT NULL UNIQUE,
  -- Files are at most WINNOW_WARC_FILE_BYTES (1 GiB at most): offsets fit an integer.
  byte_length integer NOT NULL,
  record_count integer NOT NULL,
  uploaded_at timestamptz NOT NULL DEFAULT now()
);

-- One fetch with a stored body (`stored`), or found unchanged (`unchanged`: the same body again;
-- `not-modified`: a 304), and where its WARC records are once uploaded. A removed site leaves its
-- rows (site_id and page_id NULL): its records stay in the immutable files, and a record's payload
-- may be what a later identical body's revisit record refers to.
CREATE TABLE warc_records (
  id bigserial PRIMARY KEY,
  site_id integer REFERENCES sites (id) ON DELETE SET NULL,
  page_id integer REFERENCES pages (id) ON DELETE SET NULL,
  url text NOT NULL,
  fetched_at timestamptz NOT NULL DEFAULT now(),
  fetch_kind text NOT NULL CHECK (fetch_kind IN ('stored', 'unchanged', 'not-modified')),
  status integer NOT NULL,
  response_headers jsonb NOT NULL,
  -- NULL for a page rendered in Chromium: its body is the rendered document, a `resource` record.
  request_headers jsonb,
  -- The payload: the body fetched, or for a 304 the stored body it stands for.
  content_hash text NOT NULL REFERENCES raw_pages (content_hash),
  metadata jsonb NOT NULL DEFAULT '{}',
  record_id uuid NOT NULL DEFAULT gen_random_uuid(),
  -- Set together once the file is uploaded: the payload's record (one gzip member) at
  -- [record_offset, record_offset + record_length), and with the request and metadata records
  -- that follow it, the fetch's whole group [record_offset, record_offset + group_length).
  warc_file_id integer REFERENCES warc_files (id),
  record_type text CHECK (record_type IN ('response', 'resource', 'revisit')),
  record_offset integer,
  record_length integer,
  group_length integer,
  -- An archiver process's claim while it writes the row's records; a lapsed claim is taken over.
  claimed_by text,
  claimed_until timestamptz,
  CHECK ((warc_file_id IS NULL) = (record_type IS NULL) AND (warc_file_id IS NULL) = (record_offset IS NULL))
);
CREATE INDEX warc_records_staged ON warc_records (id) WHERE warc_file_id IS NULL;
CREATE INDEX warc_records_payload ON warc_records (content_hash, id) WHERE record_type IN ('response', 'resource');
CREATE INDEX warc_records_site ON warc_records (site_id, id);
CREATE INDEX warc_records_page ON warc_records (page_id);

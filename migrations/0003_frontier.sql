-- The crawl frontier: every URL a crawl will fetch, added once (normalised), shared by every
-- crawler process. A process leases rows (FOR UPDATE SKIP LOCKED), renews its leases while it
-- works, and marks each row done with its outcome; a dead process's leases lapse and another one
-- takes the rows, so a crawl resumes where it was and refetches only what was in flight. A
-- crawl's counts are computed from these rows, never kept beside them.
CREATE TABLE frontier (
  id serial PRIMARY KEY,
  crawl_id integer NOT NULL REFERENCES crawls (id) ON DELETE CASCADE,
  site_id integer NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
  url text NOT NULL,
  -- host[:port], the unit of politeness.
  host text NOT NULL,
  -- A page, or a sitemap whose URLs join the frontier.
  kind text NOT NULL DEFAULT 'page' CHECK (kind IN ('page', 'sitemap')),
  -- A page the site had before this crawl: fetched with its validators (If-None-Match, If-Modified-Since).
  revisit boolean NOT NULL DEFAULT false,
  depth integer NOT NULL,
  -- The URL's pattern (digits and slugs generalised), for per-pattern caps.
  pattern text NOT NULL,
  state text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'leased', 'done', 'cancelled')),
  outcome text CHECK (outcome IN ('stored', 'unchanged', 'refused', 'failed', 'moved', 'gone', 'disallowed', 'read')),
  error text,
  -- Fetches tried so far; transient failures come back with a later not_before.
  attempts integer NOT NULL DEFAULT 0,
  not_before timestamptz NOT NULL DEFAULT now(),
  lease_owner text,
  lease_until timestamptz,
  -- The crawler process that marked it done.
  done_by text,
  page_id integer REFERENCES pages (id) ON DELETE SET NULL,
  added_at timestamptz NOT NULL DEFAULT now(),
  done_at timestamptz,
  UNIQUE (crawl_id, url)
);
CREATE INDEX frontier_open ON frontier (id) WHERE state IN ('queued', 'leased');
CREATE INDEX frontier_crawl_state ON frontier (crawl_id, state);
CREATE INDEX frontier_crawl_pattern ON frontier (crawl_id, pattern);

-- A crawl's counts now come from its frontier rows; it remembers how many URLs it admitted (its
-- budget is the site's maxPages) and why it failed, if it did.
ALTER TABLE crawls DROP COLUMN pages_stored;
ALTER TABLE crawls DROP COLUMN pages_rejected;
ALTER TABLE crawls ADD COLUMN urls_admitted integer NOT NULL DEFAULT 0;

-- Pages remember the canonical URL they name, and when a page that had a body answered 404/410.
ALTER TABLE pages ADD COLUMN canonical_url text;
ALTER TABLE pages ADD COLUMN gone_at timestamptz;

import type { Queryable } from './db.js';

/** One page-type cluster's template, as prepared in one run for a site. */
export interface StoredTemplate {
  id: number;
  siteId: number;
  version: number;
  cluster: string;
  urlPatterns: string[];
  /** Block paths most of the cluster's pages have: matches pages whose URL fits no pattern. */
  signature: string[];
  /** The template method that prepared it; the extractor compiles it with the same one. */
  method: string;
  /** The method's template as stored (JSON): validated by that method's `parseTemplate` where it is used. */
  template: unknown;
  sampleSize: number;
  pageCount: number;
  /** What this version changed against the one before, for analysts; null for a first version. */
  changes: TemplateChanges | null;
  createdAt: Date;
}

/** A cluster's template against the previous version's template of the same cluster. */
export interface TemplateChanges {
  /** The version compared with; null when the cluster is new. */
  since: number | null;
  /** Content paths the new template keeps that the old did not, and the other way round. */
  pathsAdded: string[];
  pathsRemoved: string[];
  /**
   * Everything else that differs from version `since`'s template, by field: the page type's
   * `urlPatterns` and `signature` (block paths most of its pages have), and the template's own
   * fields, `template.<name>`: for `pipeline`, `template.layouts` (their number),
   * `template.signature` (a layout's block paths), `template.repeatedLines` (the lines its pages
   * repeat), `template.nonContent` (the boilerplate blocks it drops), `template.regionPath` (the
   * main region)… A new version re-learns every page type from its newest sample, so a page type
   * whose content paths stay can still change here. Empty, with no path added or removed: the same
   * template, stored again because another page type of the site changed. Absent from versions
   * stored before it was recorded.
   */
  alsoChanged?: string[];
}

export type NewTemplate = Omit<StoredTemplate, 'id' | 'siteId' | 'version' | 'createdAt'>;

interface TemplateRow {
  id: number;
  site_id: number;
  version: number;
  cluster: string;
  url_patterns: string[];
  signature: string[];
  method: string;
  template: unknown;
  sample_size: number;
  page_count: number;
  changes: TemplateChanges | null;
  created_at: Date;
}

const SHAPE_COLUMNS = 'id, site_id, version, cluster, url_patterns, signature, method, sample_size, page_count, changes, created_at';
const COLUMNS = `${SHAPE_COLUMNS}, template`;

function toShape(row: Omit<TemplateRow, 'template'>): TemplateShape {
  return {
    id: row.id,
    siteId: row.site_id,
    version: row.version,
    cluster: row.cluster,
    urlPatterns: row.url_patterns,
    signature: row.signature,
    method: row.method,
    sampleSize: row.sample_size,
    pageCount: row.page_count,
    changes: row.changes,
    createdAt: row.created_at,
  };
}

function toTemplate(row: TemplateRow): StoredTemplate {
  return { ...toShape(row), template: row.template };
}

/**
 * Stores one preparation run's templates as the site's next version and makes it current, in one
 * transaction-sized step the caller wraps. Returns the new version.
 */
export async function insertTemplateVersion(db: Queryable, siteId: number, templates: readonly NewTemplate[]): Promise<number> {
  const rows = await db.query<{ version: number }>(
    'UPDATE sites SET template_version = template_version + 1, updated_at = now() WHERE id = $1 RETURNING template_version AS version',
    [siteId],
  );
  const version = rows[0]?.version;
  if (version === undefined) throw new Error(`no site with id ${siteId}`);
  for (const template of templates) {
    await db.query(
      `INSERT INTO templates (site_id, version, cluster, url_patterns, signature, method, template, sample_size, page_count, changes)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        siteId,
        version,
        template.cluster,
        template.urlPatterns,
        JSON.stringify(template.signature),
        template.method,
        JSON.stringify(template.template),
        template.sampleSize,
        template.pageCount,
        template.changes === null ? null : JSON.stringify(template.changes),
      ],
    );
  }
  return version;
}

/** The templates of the site's current version. */
export async function currentTemplates(db: Queryable, siteId: number): Promise<StoredTemplate[]> {
  const rows = await db.query<TemplateRow>(
    `SELECT ${COLUMNS} FROM templates t WHERE site_id = $1 AND version = (SELECT template_version FROM sites WHERE id = $1) ORDER BY cluster`,
    [siteId],
  );
  return rows.map(toTemplate);
}

export interface TemplateSummary {
  id: number;
  site: string;
  version: number;
  current: boolean;
  cluster: string;
  urlPatterns: string[];
  sampleSize: number;
  pageCount: number;
  method: string;
  /** Block paths the template keeps as content, over all its layouts (0 for templates without them). */
  contentPaths: number;
  /** Layouts the pipeline found in the cluster's pages (1 for other methods). */
  layouts: number;
  changes: TemplateChanges | null;
  /** How its extractions went, now: see `TemplateHealth`. */
  health: TemplateHealth;
  createdAt: Date;
}

/** How a template's pages were read: how many, how many the self-check read alone, and the mean words kept. */
export interface TemplateHealth {
  pages: number;
  readAlone: number;
  meanWords: number;
}

/** A FastCE-family template's content paths, whether it is one template or the pipeline's one per layout. */
const CONTENT_PATHS = `coalesce(jsonb_array_length(t.template->'contentPaths'),
  (SELECT sum(jsonb_array_length(l->'template'->'contentPaths')) FROM jsonb_array_elements(t.template->'layouts') l), 0)::int`;
const LAYOUTS = `coalesce(jsonb_array_length(t.template->'layouts'), 1)::int`;

/** Every stored template, newest version first, optionally of one site, with its health now. */
export async function listTemplates(db: Queryable, siteName?: string): Promise<TemplateSummary[]> {
  const rows = await db.query<
    Omit<TemplateRow, 'template' | 'signature' | 'site_id'> & { site: string; current: boolean; content_paths: number; layouts: number } & HealthRow
  >(
    `SELECT t.id, s.name AS site, t.version, t.version = s.template_version AS current, t.cluster, t.url_patterns, t.sample_size, t.page_count,
            t.method, ${CONTENT_PATHS} AS content_paths, ${LAYOUTS} AS layouts, t.changes, t.created_at,
            coalesce(h.pages, 0) AS pages, coalesce(h.read_alone, 0) AS read_alone, coalesce(h.mean_words, 0) AS mean_words
       FROM templates t JOIN sites s ON s.id = t.site_id
       LEFT JOIN LATERAL (${HEALTH_OF_TEMPLATE}) h ON true
      WHERE $1::text IS NULL OR s.name = $1
      ORDER BY s.name, t.version DESC, t.cluster`,
    [siteName ?? null],
  );
  return rows.map((row) => ({
    id: row.id,
    site: row.site,
    version: row.version,
    current: row.current,
    cluster: row.cluster,
    urlPatterns: row.url_patterns,
    sampleSize: row.sample_size,
    pageCount: row.page_count,
    method: row.method,
    contentPaths: row.content_paths,
    layouts: row.layouts,
    changes: row.changes,
    health: toHealth(row),
    createdAt: row.created_at,
  }));
}

interface HealthRow {
  pages: number;
  read_alone: number;
  mean_words: number;
}

/**
 * The health of template `t`'s page type (one row, zeros when none): the pages whose extraction
 * was read by it or by an earlier version's template of the same cluster. A page whose reading the
 * self-check trusted keeps it across versions (`EXTRACTION_STANDS`), so it counts for its page type,
 * not only for the version that read it.
 */
const HEALTH_OF_TEMPLATE = `SELECT count(*)::int AS pages, count(*) FILTER (WHERE e.read_alone)::int AS read_alone,
  coalesce(avg(e.word_count), 0)::float8 AS mean_words
  FROM templates o JOIN extractions e ON e.template_id = o.id WHERE o.site_id = t.site_id AND o.cluster = t.cluster AND o.version <= t.version`;

function toHealth(row: HealthRow): TemplateHealth {
  return { pages: row.pages, readAlone: row.read_alone, meanWords: row.mean_words };
}

/** A stored template with its page type's health now. */
export type TemplateWithHealth = StoredTemplate & { health: TemplateHealth };

/** The templates of one version of the site (bodies included), by page type, each with its health now; none when the site has no such version. */
export async function templatesOfVersion(db: Queryable, siteId: number, version: number): Promise<TemplateWithHealth[]> {
  const rows = await db.query<TemplateRow & HealthRow>(
    `SELECT ${COLUMNS}, h.pages, h.read_alone, h.mean_words
       FROM templates t, LATERAL (${HEALTH_OF_TEMPLATE}) h WHERE t.site_id = $1 AND t.version = $2 ORDER BY t.cluster`,
    [siteId, version],
  );
  return rows.map((row) => ({ ...toTemplate(row), health: toHealth(row) }));
}

/** One template's health now. */
export async function templateHealth(db: Queryable, templateId: number): Promise<TemplateHealth> {
  const rows = await db.query<HealthRow>(`SELECT h.* FROM templates t, LATERAL (${HEALTH_OF_TEMPLATE}) h WHERE t.id = $1`, [templateId]);
  return rows[0] ? toHealth(rows[0]) : { pages: 0, readAlone: 0, meanWords: 0 };
}

/**
 * Stores the health of a site's current templates as of now (the templater does, on every run), so
 * it can be followed over time: a row per page type whose template or figures changed since its
 * last row. Growth stays bounded by what happens to the site, not by how often the schedule fires:
 * a run that finds the same figures with the same template (a site not crawled since, every
 * `templateEveryMs`) stores nothing, since a row says the figures as first measured and they
 * hold until the page type's next row.
 */
export async function recordTemplateHealth(db: Queryable, siteId: number): Promise<void> {
  await db.query(
    `INSERT INTO template_health (template_id, pages, read_alone, mean_words)
     SELECT t.id, h.pages, h.read_alone, h.mean_words FROM templates t JOIN sites s ON s.id = t.site_id AND t.version = s.template_version,
            LATERAL (${HEALTH_OF_TEMPLATE}) h
            LEFT JOIN LATERAL (SELECT l.template_id, l.pages, l.read_alone, l.mean_words FROM template_health l JOIN templates lt ON lt.id = l.template_id
                                WHERE lt.site_id = t.site_id AND lt.cluster = t.cluster ORDER BY l.measured_at DESC LIMIT 1) last ON true
      WHERE t.site_id = $1 AND h.pages > 0
        AND (last.template_id, last.pages, last.read_alone, last.mean_words) IS DISTINCT FROM (t.id, h.pages, h.read_alone, h.mean_words)`,
    [siteId],
  );
}

/** One recorded measure of a page type's health, with the template version it was measured on. */
export interface HealthRecord extends TemplateHealth {
  cluster: string;
  version: number;
  measuredAt: Date;
}

export interface HealthQuery {
  /** Only records measured at or after this time. */
  since?: Date | undefined;
  offset: number;
  limit: number;
}

/**
 * A site's recorded health by page type (cluster) across its template versions, newest first (then
 * by page type), from `since` on, one page of them: how a redesign shows over time. `total` counts
 * every record the query matches.
 */
export async function siteHealthHistory(db: Queryable, siteId: number, query: HealthQuery): Promise<{ total: number; entries: HealthRecord[] }> {
  const where = 'FROM template_health h JOIN templates t ON t.id = h.template_id WHERE t.site_id = $1 AND ($2::timestamptz IS NULL OR h.measured_at >= $2)';
  const since = query.since?.toISOString() ?? null;
  const [count] = await db.query<{ total: number }>(`SELECT count(*)::int AS total ${where}`, [siteId, since]);
  const rows = await db.query<HealthRow & { cluster: string; version: number; measured_at: Date }>(
    `SELECT t.cluster, t.version, h.pages, h.read_alone, h.mean_words, h.measured_at ${where}
      ORDER BY h.measured_at DESC, t.cluster OFFSET $3 LIMIT $4`,
    [siteId, since, query.offset, query.limit],
  );
  return {
    total: count?.total ?? 0,
    entries: rows.map((row) => ({ cluster: row.cluster, version: row.version, ...toHealth(row), measuredAt: row.measured_at })),
  };
}

export type TemplateShape = Omit<StoredTemplate, 'template'>;

/** The current version's templates without their bodies: enough to pick one and check a cache. */
export async function currentTemplateShapes(db: Queryable, siteId: number): Promise<TemplateShape[]> {
  const rows = await db.query<Omit<TemplateRow, 'template'>>(
    `SELECT ${SHAPE_COLUMNS} FROM templates
      WHERE site_id = $1 AND version = (SELECT template_version FROM sites WHERE id = $1) ORDER BY cluster`,
    [siteId],
  );
  return rows.map(toShape);
}

export async function findTemplate(db: Queryable, id: number): Promise<StoredTemplate | undefined> {
  const rows = await db.query<TemplateRow>(`SELECT ${COLUMNS} FROM templates WHERE id = $1`, [id]);
  return rows[0] && toTemplate(rows[0]);
}

/** The page types (clusters) any template version of the site was prepared for, in code-point order: what `--page-type` may name. */
export async function sitePageTypes(db: Queryable, siteId: number): Promise<string[]> {
  const rows = await db.query<{ cluster: string }>('SELECT DISTINCT cluster FROM templates WHERE site_id = $1 ORDER BY cluster', [siteId]);
  return rows.map((row) => row.cluster);
}

/** The template a page type had in the site's latest version before `version`; undefined when none had one. */
export async function previousTemplate(db: Queryable, siteId: number, pageType: string, version: number): Promise<StoredTemplate | undefined> {
  const rows = await db.query<TemplateRow>(
    `SELECT ${COLUMNS} FROM templates WHERE site_id = $1 AND cluster = $2 AND version < $3 ORDER BY version DESC LIMIT 1`,
    [siteId, pageType, version],
  );
  return rows[0] && toTemplate(rows[0]);
}

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
  createdAt: Date;
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
  created_at: Date;
}

const COLUMNS = 'id, site_id, version, cluster, url_patterns, signature, method, template, sample_size, page_count, created_at';

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
      `INSERT INTO templates (site_id, version, cluster, url_patterns, signature, method, template, sample_size, page_count) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
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
  /** Block paths a FastCE-family template keeps as content (0 for templates without them). */
  contentPaths: number;
  createdAt: Date;
}

/** Every stored template, newest version first, optionally of one site. */
export async function listTemplates(db: Queryable, siteName?: string): Promise<TemplateSummary[]> {
  const rows = await db.query<Omit<TemplateRow, 'template' | 'signature' | 'site_id'> & { site: string; current: boolean; content_paths: number }>(
    `SELECT t.id, s.name AS site, t.version, t.version = s.template_version AS current, t.cluster, t.url_patterns, t.sample_size, t.page_count,
            t.method, coalesce(jsonb_array_length(t.template->'contentPaths'), 0)::int AS content_paths, t.created_at
       FROM templates t JOIN sites s ON s.id = t.site_id
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
    createdAt: row.created_at,
  }));
}

export type TemplateShape = Omit<StoredTemplate, 'template'>;

/** The current version's templates without their bodies: enough to pick one and check a cache. */
export async function currentTemplateShapes(db: Queryable, siteId: number): Promise<TemplateShape[]> {
  const rows = await db.query<Omit<TemplateRow, 'template'>>(
    `SELECT id, site_id, version, cluster, url_patterns, signature, method, sample_size, page_count, created_at FROM templates
      WHERE site_id = $1 AND version = (SELECT template_version FROM sites WHERE id = $1) ORDER BY cluster`,
    [siteId],
  );
  return rows.map(toShape);
}

export async function findTemplate(db: Queryable, id: number): Promise<StoredTemplate | undefined> {
  const rows = await db.query<TemplateRow>(`SELECT ${COLUMNS} FROM templates WHERE id = $1`, [id]);
  return rows[0] && toTemplate(rows[0]);
}

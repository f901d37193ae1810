import { readStoredSiteConfig, type SiteConfig, WinnowError } from '@winnow/config';
import type { Db, Queryable } from './db.js';

export interface Site {
  id: number;
  name: string;
  config: SiteConfig;
  /** What this version refuses in the stored settings (written by an earlier one), or null: the site's crawls do not start until it is fixed. */
  configProblem: string | null;
  templateVersion: number;
  createdAt: Date;
}

interface SiteRow {
  id: number;
  name: string;
  config: unknown;
  template_version: number;
  created_at: Date;
}

const COLUMNS = 'id, name, config, template_version, created_at';

/** Stored configurations are validated again on the way out (`readStoredSiteConfig`): what an earlier version accepted and this one refuses is named, not fatal. */
function toSite(row: SiteRow): Site {
  const { config, problem } = readStoredSiteConfig(row.config);
  return { id: row.id, name: row.name, config, configProblem: problem, templateVersion: row.template_version, createdAt: row.created_at };
}

export class SiteExistsError extends WinnowError {
  override readonly name = 'SiteExistsError';
  constructor(message: string) {
    super('conflict', message);
  }
}

export async function insertSite(db: Queryable, config: SiteConfig): Promise<Site> {
  const rows = await db.query<SiteRow>(`INSERT INTO sites (name, config) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING RETURNING ${COLUMNS}`, [
    config.name,
    JSON.stringify(config),
  ]);
  const row = rows[0];
  if (!row) throw new SiteExistsError(`site "${config.name}" already exists`);
  return toSite(row);
}

/** Replaces a site's configuration (the name stays). */
export async function updateSiteConfig(db: Queryable, name: string, config: SiteConfig): Promise<Site | undefined> {
  const rows = await db.query<SiteRow>(`UPDATE sites SET config = $2, updated_at = now() WHERE name = $1 RETURNING ${COLUMNS}`, [
    name,
    JSON.stringify({ ...config, name }),
  ]);
  return rows[0] && toSite(rows[0]);
}

/**
 * Changes a site's configuration by `change`, applied to the stored one while its row is locked:
 * two changes made at once both apply, neither writes back what it read before the other. What
 * `change` throws rolls the transaction back. Undefined when there is no such site.
 */
export async function changeSiteConfig(db: Db, name: string, change: (config: SiteConfig) => SiteConfig): Promise<Site | undefined> {
  return db.transaction(async (tx) => {
    const rows = await tx.query<SiteRow>(`SELECT ${COLUMNS} FROM sites WHERE name = $1 FOR UPDATE`, [name]);
    return rows[0] && updateSiteConfig(tx, name, change(toSite(rows[0]).config));
  });
}

export async function findSite(db: Queryable, name: string): Promise<Site | undefined> {
  const rows = await db.query<SiteRow>(`SELECT ${COLUMNS} FROM sites WHERE name = $1`, [name]);
  return rows[0] && toSite(rows[0]);
}

export async function findSiteById(db: Queryable, id: number): Promise<Site | undefined> {
  const rows = await db.query<SiteRow>(`SELECT ${COLUMNS} FROM sites WHERE id = $1`, [id]);
  return rows[0] && toSite(rows[0]);
}

export async function listSites(db: Queryable): Promise<Site[]> {
  const rows = await db.query<SiteRow>(`SELECT ${COLUMNS} FROM sites ORDER BY name`);
  return rows.map(toSite);
}

/** The names of every site, without reading their configurations (what a search may return documents of). */
export async function listSiteNames(db: Queryable): Promise<string[]> {
  const rows = await db.query<{ name: string }>('SELECT name FROM sites ORDER BY name');
  return rows.map((row) => row.name);
}

/** Deletes a site with its crawls, pages, templates and extractions; true if it existed. */
export async function deleteSite(db: Queryable, name: string): Promise<boolean> {
  const rows = await db.query('DELETE FROM sites WHERE name = $1 RETURNING id', [name]);
  return rows.length > 0;
}

/** Makes `version` the site's current template version. */
export async function setTemplateVersion(db: Queryable, siteId: number, version: number): Promise<void> {
  await db.query('UPDATE sites SET template_version = $2, updated_at = now() WHERE id = $1', [siteId, version]);
}

import { WinnowError } from '@winnow/config';
import { templateContentPaths, type TemplateLayoutOutline, templateMethodByName } from '@winnow/extract';
import { type Site, type TemplateChanges, type TemplateHealth, templatesOfVersion, type TemplateWithHealth } from '@winnow/storage';
import { InvalidRequestError, quoted, requireSite } from './operations.js';
import type { Runtime } from './runtime.js';
import { templateChanges } from './templateChanges.js';

/**
 * A site's stored template versions as an analyst judges them: one version's templates in full
 * (`winnow templates show`), and what changed between any two versions (`winnow templates diff`),
 * by the rules the templater records each version's changes with (`templateChanges`).
 */

/** One page type's template of a version: where it applies, what it was learned from, what it keeps and drops, and how its pages read now. */
export interface TemplateDetail {
  id: number;
  cluster: string;
  version: number;
  method: string;
  urlPatterns: string[];
  /** Block paths most of the page type's pages have: matches pages whose URL fits no pattern. */
  signature: string[];
  /** Pages of the page type when it was prepared, and how many of them the template was learned from. */
  pageCount: number;
  sampleSize: number;
  createdAt: Date;
  /** What this version changed against the one before (null for a site's first version). */
  changes: TemplateChanges | null;
  health: TemplateHealth;
  /** The block paths read as content, over all its layouts. */
  contentPaths: string[];
  layouts: TemplateLayoutOutline[];
}

export interface TemplateVersionView {
  site: string;
  version: number;
  current: boolean;
  templates: TemplateDetail[];
}

/**
 * One version of the site's templates (the current one when `version` is absent), optionally one
 * page type's, in full. A version the site never had, or a page type the version has no template
 * for, is not found, naming what there is.
 */
export async function templateVersion(
  rt: Runtime,
  name: string,
  params: { version?: number | undefined; pageType?: string | undefined } = {},
): Promise<TemplateVersionView> {
  const site = await requireSite(rt, name);
  const version = params.version ?? site.templateVersion;
  const templates = ofPageType(site, version, await versionTemplates(rt, site, version), params.pageType);
  return { site: site.name, version, current: version === site.templateVersion, templates: templates.map(detail) };
}

/** What became of a page type between two versions: `new` and `removed` list every content path as added or removed. */
export interface PageTypeDiff extends Omit<TemplateChanges, 'since'> {
  cluster: string;
  outcome: 'new' | 'removed' | 'changed' | 'unchanged';
  alsoChanged: string[];
}

export interface TemplateDiffParams {
  /** The version compared with. */
  from?: number | undefined;
  /** The version compared; the current one when absent. */
  to?: number | undefined;
  /** Only this page type. */
  pageType?: string | undefined;
}

export interface TemplateDiff {
  site: string;
  from: number;
  to: number;
  pageTypes: PageTypeDiff[];
}

/**
 * What changed in the site's templates from version `from` to version `to` (the current one when
 * absent), per page type (or only `pageType`'s): content paths added and removed, and the other
 * fields that differ, as `templates list` says a version's changes against the one before.
 */
export async function templateDiff(rt: Runtime, name: string, params: TemplateDiffParams): Promise<TemplateDiff> {
  const site = await requireSite(rt, name);
  const { from } = params;
  if (from === undefined) throw new InvalidRequestError('from is required: the template version to compare with');
  const to = params.to ?? site.templateVersion;
  const [before, after] = [await versionTemplates(rt, site, from, 'from'), await versionTemplates(rt, site, to, 'to')];
  const clusters = [...new Set([...before, ...after].map((template) => template.cluster))].sort();
  if (params.pageType !== undefined && !clusters.includes(params.pageType)) {
    throw new WinnowError(
      'not-found',
      `${site.name} has no page type ${quoted(params.pageType)} in version ${from} or ${to}; their page types: ${clusters.join(', ')}`,
    );
  }
  const pageTypes = clusters
    .filter((cluster) => params.pageType === undefined || cluster === params.pageType)
    .map((cluster): PageTypeDiff => {
      const old = before.find((template) => template.cluster === cluster);
      const now = after.find((template) => template.cluster === cluster);
      if (!now) {
        const { pathsAdded } = templateChanges(old as TemplateWithHealth, undefined);
        return { cluster, outcome: 'removed', pathsAdded: [], pathsRemoved: pathsAdded, alsoChanged: [] };
      }
      const { pathsAdded, pathsRemoved, alsoChanged = [] } = templateChanges(now, old);
      const changed = pathsAdded.length + pathsRemoved.length + alsoChanged.length > 0;
      return { cluster, outcome: !old ? 'new' : changed ? 'changed' : 'unchanged', pathsAdded, pathsRemoved, alsoChanged };
    });
  return { site: site.name, from, to, pageTypes };
}

/** The templates of one of the site's versions; `role` names the parameter in the refusal of a version that is no number. */
async function versionTemplates(rt: Runtime, site: Site, version: number, role = 'version'): Promise<TemplateWithHealth[]> {
  if (!Number.isInteger(version) || version < 0) throw new InvalidRequestError(`${role} must be a template version: a positive integer`);
  const templates = version === 0 ? [] : await templatesOfVersion(rt.db, site.id, version);
  if (templates.length > 0) return templates;
  if (site.templateVersion === 0) {
    throw new WinnowError('not-found', `${site.name} has no templates yet: a page type gets one once it has the site's minTemplatePages stored pages`);
  }
  throw new WinnowError('not-found', `${site.name} has no template version ${version}; its versions are 1 to ${site.templateVersion}`);
}

function ofPageType(site: Site, version: number, templates: TemplateWithHealth[], pageType: string | undefined): TemplateWithHealth[] {
  if (pageType === undefined) return templates;
  const found = templates.filter((template) => template.cluster === pageType);
  if (found.length === 0) {
    throw new WinnowError(
      'not-found',
      `${site.name} has no template of page type ${quoted(pageType)} in version ${version}; its page types: ${templates.map((template) => template.cluster).join(', ')}`,
    );
  }
  return found;
}

function detail(template: TemplateWithHealth): TemplateDetail {
  const method = templateMethodByName(template.method);
  const parsed = method.parseTemplate(template.template);
  return {
    id: template.id,
    cluster: template.cluster,
    version: template.version,
    method: template.method,
    urlPatterns: template.urlPatterns,
    signature: template.signature,
    pageCount: template.pageCount,
    sampleSize: template.sampleSize,
    createdAt: template.createdAt,
    changes: template.changes,
    health: template.health,
    contentPaths: templateContentPaths(method, parsed),
    layouts: method.outline(parsed),
  };
}

import { clusterFor, decodeHtml, documentTitle, type ExtractionResult, readAlone, wordCount } from '@winnow/extract';
import { UnrecoverableError } from '@winnow/queue';
import type { Runtime } from '@winnow/runtime';
import {
  currentTemplateShapes,
  type Extraction,
  extractionIsCurrent,
  findPage,
  findSiteById,
  findTemplate,
  loadRawPage,
  saveExtraction,
  templateHealth,
} from '@winnow/storage';

/** A stored template as the CPU pool's tasks take it: compiled once per thread, under its key. */
type TaskTemplate = { key: string; method: string; body: unknown };

/**
 * Stored templates by id, as extraction tasks carry them. A new preparation stores new rows with
 * new ids, so a new version is never served from the cache: each job reads the current version's
 * ids (a small query) and loads only the templates it has not seen.
 */
export class TemplateCache {
  readonly #templates = new Map<number, TaskTemplate>();
  readonly #capacity: number;

  constructor(capacity = 64) {
    this.#capacity = capacity;
  }

  async get(rt: Runtime, templateId: number): Promise<TaskTemplate | undefined> {
    const cached = this.#templates.get(templateId);
    if (cached) return cached;
    const stored = await findTemplate(rt.db, templateId);
    if (!stored) return undefined;
    const template = { key: String(templateId), method: stored.method, body: stored.template };
    if (this.#templates.size >= this.#capacity) this.#templates.delete(this.#templates.keys().next().value as number);
    this.#templates.set(templateId, template);
    return template;
  }
}

/**
 * Extracts one stored page: with the template of its page-type cluster, by the method that
 * prepared it, when the site has one that fits; otherwise with the single-page fallback
 * (`WINNOW_FALLBACK_METHOD`, `reader` by default). A page read without any
 * template of its site is marked for re-extraction, which the templater enqueues once templates
 * exist. A page whose extraction is already of its body and the current template version is not
 * extracted again (null). A missing page, or a body that is not a readable HTML document, fails for good.
 */
export async function extractPage(rt: Runtime, cache: TemplateCache, pageId: number): Promise<Extraction | null> {
  if (await extractionIsCurrent(rt.db, pageId)) return null;
  const page = await findPage(rt.db, pageId);
  if (!page) throw new UnrecoverableError(`page ${pageId} does not exist`);
  if (!page.contentHash) throw new UnrecoverableError(`page ${pageId} (${page.url}) has no stored body: ${page.fetchError ?? 'not fetched'}`);
  const site = await findSiteById(rt.db, page.siteId);
  if (!site) throw new UnrecoverableError(`the site of page ${pageId} no longer exists`);
  const body = await loadRawPage(rt.db, page.contentHash);
  if (!body) throw new UnrecoverableError(`page ${pageId}: body ${page.contentHash} is missing from raw_pages`);

  let html: string;
  let decodeWarnings: string[];
  try {
    ({ html, warnings: decodeWarnings } = decodeHtml(body, page.contentType ?? undefined));
  } catch (error) {
    throw new UnrecoverableError(`page ${pageId} (${page.url}): ${(error as Error).message}`);
  }

  const shapes = await currentTemplateShapes(rt.db, site.id);
  const shape = clusterFor({ url: page.url, html }, shapes);
  const template = (shape && (await cache.get(rt, shape.id))) ?? null;
  let result: ExtractionResult;
  try {
    // Off the event loop (rt.cpu): parsing and reading a large page must not hold up the queue's locks.
    result = await rt.cpu.extract({ html, fallback: rt.env.WINNOW_FALLBACK_METHOD, template });
  } catch (error) {
    throw new UnrecoverableError(`page ${pageId} (${page.url}): ${(error as Error).message}`);
  }
  const templateId = template && shape ? shape.id : null;
  const extraction = await saveExtraction(rt.db, {
    pageId,
    contentHash: page.contentHash,
    method: result.method,
    templateId,
    templateVersion: site.templateVersion > 0 ? site.templateVersion : null,
    title: documentTitle(html) || null,
    blocks: result.blocks,
    mainText: result.text,
    warnings: [...decodeWarnings, ...result.warnings],
    needsReextract: shapes.length === 0,
    readAlone: templateId !== null && readAlone(result),
    wordCount: wordCount(result.text),
  });
  if (extraction.readAlone && templateId !== null) await noticeDrift(rt, site.id, templateId);
  return extraction;
}

/** A template is judged once it has read this many pages... */
export const DRIFT_MIN_PAGES = 10;
/** ...and has drifted when the self-check read at least this share of them alone (a redesign, a new page type). */
export const DRIFT_SHARE = 0.5;

/**
 * When a template's pages are mostly read alone, the site has changed under it: the templater is
 * asked to prepare again now, without waiting for the schedule, once per template (the job's
 * deduplication id names the template; a new version has new ids). The run stores a new version
 * only if the pages now teach a different one.
 */
async function noticeDrift(rt: Runtime, siteId: number, templateId: number): Promise<void> {
  const health = await templateHealth(rt.db, templateId);
  if (health.pages < DRIFT_MIN_PAGES || health.readAlone < DRIFT_SHARE * health.pages) return;
  rt.log.warn({ siteId, templateId, ...health }, 'template drift: most of its pages are read alone; preparing templates again');
  await rt.queues.add('template', { siteId, reason: 'drift' }, { deduplication: { id: `drift:${templateId}` } });
}

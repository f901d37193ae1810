import { articleHeadline, clusterFor, decodeHtml, documentTitle, type ExtractionResult, readAlone, selfCheckVerdict, wordCount } from '@winnow/extract';
import { UnrecoverableError } from '@winnow/queue';
import type { Runtime } from '@winnow/runtime';
import {
  currentTemplateShapes,
  type Extraction,
  extractionInput,
  findTemplate,
  loadBody,
  saveExtraction,
  type TemplateShape,
  templateHealth,
} from '@winnow/storage';

/** A stored template as the CPU pool's tasks take it: compiled once per thread, under its key. */
type TaskTemplate = { key: string; method: string; body: unknown };

/**
 * A site's current templates, as extraction jobs need them, per process. A new preparation stores
 * a new version with new rows, so entries are keyed by site and version (the shapes) and by row
 * id (the bodies): a job's one query says the site's current version, and nothing stale is served.
 */
export class TemplateCache {
  readonly #templates = new Map<number, TaskTemplate>();
  readonly #shapes = new Map<number, { version: number; shapes: TemplateShape[] }>();
  readonly #capacity: number;

  constructor(capacity = 64) {
    this.#capacity = capacity;
  }

  async shapes(rt: Runtime, siteId: number, version: number): Promise<TemplateShape[]> {
    const cached = this.#shapes.get(siteId);
    if (cached?.version === version) return cached.shapes;
    const shapes = version > 0 ? await currentTemplateShapes(rt.db, siteId) : [];
    // A version newer than the one read (a preparation just finished) is read again by the next job.
    if (shapes.every((shape) => shape.version === version)) this.#remember(this.#shapes, siteId, { version, shapes });
    return shapes;
  }

  async get(rt: Runtime, templateId: number): Promise<TaskTemplate | undefined> {
    const cached = this.#templates.get(templateId);
    if (cached) return cached;
    const stored = await findTemplate(rt.db, templateId);
    if (!stored) return undefined;
    const template = { key: String(templateId), method: stored.method, body: stored.template };
    this.#remember(this.#templates, templateId, template);
    return template;
  }

  #remember<V>(map: Map<number, V>, key: number, value: V): void {
    if (!map.has(key) && map.size >= this.#capacity) map.delete(map.keys().next().value as number);
    map.set(key, value);
  }
}

/**
 * Extracts one stored page: with the template of its page-type cluster, by the method that
 * prepared it, when the site has one that fits; otherwise with the single-page fallback
 * (`WINNOW_FALLBACK_METHOD`, `reader` by default). A page whose extraction stands (of its body,
 * and of the current template version or trusted by the self-check under an earlier one) is not
 * extracted again (null). Everything the job reads of the page and its site comes in one query,
 * its body through the body store, and the extraction is written in one. A page that no longer
 * exists (its site was removed after the job was queued) is `vanished`: nothing to do, and nothing
 * failed. A page without a body, or a body that is not a readable HTML document, fails for good.
 */
export async function extractPage(rt: Runtime, cache: TemplateCache, pageId: number, watch?: NewPageTypes): Promise<Extraction | null | 'vanished'> {
  const input = await extractionInput(rt.db, pageId);
  if (!input) return 'vanished';
  if (input.current) return null;
  const { url, contentHash, siteId, templateVersion } = input;
  if (!contentHash) throw new UnrecoverableError(`page ${pageId} (${url}) has no stored body: ${input.fetchError ?? 'not fetched'}`);
  // Wherever the body is kept (`rt.bodies`): an object store that cannot be reached is waited for, then the job fails and is retried.
  const body = await loadBody(rt.bodies, contentHash);
  if (!body) throw new UnrecoverableError(`page ${pageId}: body ${contentHash} is missing from the body store (${rt.bodies.kind})`);

  // Reading the body (decoding, parsing, extracting) fails the same way every time: for good.
  const unreadable = (error: unknown) => new UnrecoverableError(`page ${pageId} (${url}): ${(error as Error).message}`);
  const shapes = await cache.shapes(rt, siteId, templateVersion);
  let html: string;
  let decodeWarnings: string[];
  let shape: TemplateShape | undefined;
  try {
    ({ html, warnings: decodeWarnings } = decodeHtml(body, input.contentType ?? undefined));
    shape = clusterFor({ url, html }, shapes);
  } catch (error) {
    throw unreadable(error);
  }
  const template = (shape && (await cache.get(rt, shape.id))) ?? null;
  let result: ExtractionResult;
  try {
    // Off the event loop (rt.cpu): parsing and reading a large page must not hold up the queue's locks.
    result = await rt.cpu.extract({ html, fallback: rt.env.WINNOW_FALLBACK_METHOD, template });
  } catch (error) {
    throw unreadable(error);
  }
  const templateId = template && shape ? shape.id : null;
  const title = documentTitle(html);
  const extraction = await saveExtraction(rt.db, {
    pageId,
    contentHash,
    method: result.method,
    templateId,
    templateVersion: templateVersion > 0 ? templateVersion : null,
    title: title || null,
    headline: articleHeadline(result.blocks, title) || null,
    blocks: result.blocks,
    mainText: result.text,
    warnings: [...decodeWarnings, ...result.warnings],
    needsReextract: false,
    readAlone: templateId !== null && readAlone(result),
    wordCount: wordCount(result.text),
  });
  const { verdict, reason } = selfCheckVerdict(result, templateId !== null);
  rt.metrics.extractions.inc({ method: result.method, verdict, reason });
  if (extraction.readAlone && templateId !== null) await noticeDrift(rt, input.siteName, siteId, templateId, shape?.cluster);
  if (templateId === null && !input.extractedBefore && watch?.noted(siteId, input.siteConfig.minTemplatePages)) {
    rt.log.info({ site: input.siteName }, `${input.siteName}: pages without a template of their type are accumulating; preparing templates`);
    await rt.queues.add('template', { siteId, reason: 'new-pages' }, { deduplication: { id: `new-pages:${siteId}` } });
  }
  return extraction;
}

/**
 * Counts, per site, the new pages this process read without a template of their type (a site's
 * first pages, or a page type met for the first time), and says when to ask the templater for
 * templates: at twice the site's `minTemplatePages`, then at each doubling of that count. A page
 * type then gets its template after a few of its pages rather than at the crawl's end, so its
 * other pages are read once, by it; doubling bounds the runs for pages that fit no type (a site's
 * one-off pages) to a logarithm of their number.
 */
export class NewPageTypes {
  readonly #counts = new Map<number, { count: number; askAt: number }>();

  noted(siteId: number, minTemplatePages: number): boolean {
    const seen = this.#counts.get(siteId) ?? { count: 0, askAt: 2 * minTemplatePages };
    seen.count++;
    this.#counts.set(siteId, seen);
    if (seen.count < seen.askAt) return false;
    seen.askAt *= 2;
    return true;
  }
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
async function noticeDrift(rt: Runtime, site: string, siteId: number, templateId: number, pageType: string | undefined): Promise<void> {
  if (driftNoticed.has(templateId)) return;
  const health = await templateHealth(rt.db, templateId);
  if (health.pages < DRIFT_MIN_PAGES || health.readAlone < DRIFT_SHARE * health.pages) return;
  if (driftNoticed.size >= DRIFT_MEMORY) driftNoticed.clear();
  driftNoticed.add(templateId);
  rt.metrics.templateDrift.inc({ site });
  rt.log.warn(
    { site, pageType, templateId, ...health },
    `template drift on ${site}${pageType ? ` ${pageType}` : ''}: ${health.readAlone} of its ${health.pages} pages read alone; preparing templates again`,
  );
  await rt.queues.add('template', { siteId, reason: 'drift' }, { deduplication: { id: `drift:${templateId}` } });
}

/**
 * Templates this process found drifting: each is reported (logged, counted) and its preparation
 * asked for once, not once per page read alone after it. A new version has new template ids;
 * past `DRIFT_MEMORY` ids the memory starts again (a second report at worst).
 */
const driftNoticed = new Set<number>();
const DRIFT_MEMORY = 10_000;

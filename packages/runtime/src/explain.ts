import {
  decodeHtml,
  type ExplainedLine,
  explainExtraction,
  markedPage,
  type PageExtractor,
  type SelfCheckVerdict,
  selfCheckVerdict,
  singlePageMethodByName,
  templateMethodByName,
} from '@winnow/extract';
import { extractionSource, findTemplate, loadBody, type PageExtraction, previousTemplate, type StoredTemplate } from '@winnow/storage';
import { diffArrays } from 'diff';
import { type PageParams, PageNotFoundError, pageExtraction } from './pages.js';
import type { Runtime } from './runtime.js';

/** One line of the diff between two readings of a page: in both, only in the current one, or only in the earlier one. */
export interface ReadingDiffLine {
  change: 'same' | 'added' | 'removed';
  text: string;
}

/**
 * Why a page has the text it has (the page inspector): every line of the page in document order,
 * kept or dropped by the rule that decided it, beside the stored extraction (`page`, as
 * `GET /pages` answers it). The explanation re-reads the stored body with the template that read
 * it: `keptText` equals the stored main text unless the code or the body changed since
 * (`matchesStored` says which).
 */
export interface PageExplanation {
  page: PageExtraction;
  /** What the self-check made of the page, as `winnow_extractions_total` counts it. */
  selfCheck: SelfCheckVerdict;
  /** The layout whose template read the page (its sample pages, and the share of its block paths the page has); null when none did. */
  layout: { pageCount: number; similarity: number } | null;
  /** Why the self-check read the page alone; null when it did not. */
  readAlone: string | null;
  lines: ExplainedLine[];
  keptText: string;
  matchesStored: boolean;
  /**
   * The page read by its page type's template of the site's previous version, against its reading
   * now: what the last preparation changed on this page. Null when no earlier version had a
   * template of its page type (or no template read the page).
   */
  previous: { templateVersion: number; diff: ReadingDiffLine[] } | null;
}

/** The extractor a stored template compiles to, by the method that prepared it. */
function compiled(template: StoredTemplate): PageExtractor {
  const method = templateMethodByName(template.method);
  return method.compile(method.parseTemplate(template.template));
}

/** The page's body as the extractor read it: bytes from the body store, decoded as the page declared. */
async function storedPage(rt: Runtime, page: PageExtraction): Promise<{ html: string; source: NonNullable<Awaited<ReturnType<typeof extractionSource>>> }> {
  const source = await extractionSource(rt.db, page.site, page.url);
  if (!source) throw new PageNotFoundError(`${page.url} (${page.site}) has no extraction of its current body`);
  const body = await loadBody(rt.bodies, source.contentHash);
  if (!body) throw new PageNotFoundError(`${page.url} (${page.site}): its body is missing from the body store (${rt.bodies.kind})`);
  return { html: decodeHtml(body, source.contentType ?? undefined).html, source };
}

/** A page's explanation (see `PageExplanation`); the page is found as `pageExtraction` finds it, with its errors. */
export async function pageExplanation(rt: Runtime, params: PageParams): Promise<PageExplanation> {
  return (await explained(rt, params)).explanation;
}

/** The stored page marked with its explanation, for the inspector's sandboxed frame (`markedPage`). */
export async function inspectedPage(rt: Runtime, params: PageParams): Promise<string> {
  const { explanation, html } = await explained(rt, params);
  return markedPage(html, explanation.lines).html;
}

async function explained(rt: Runtime, params: PageParams): Promise<{ explanation: PageExplanation; html: string }> {
  const page = await pageExtraction(rt, params);
  const { html, source } = await storedPage(rt, page);
  const template = source.templateId === null ? undefined : await findTemplate(rt.db, source.templateId);
  const extract = template ? compiled(template) : singlePageMethodByName(source.method).extract;
  const explanation = explainExtraction(html, extract);
  let previous: PageExplanation['previous'] = null;
  if (template) {
    const earlier = await previousTemplate(rt.db, source.siteId, template.cluster, template.version);
    if (earlier) {
      const before = compiled(earlier)(html).blocks.map((block) => block.text);
      const now = explanation.result.blocks.map((block) => block.text);
      const diff = diffArrays(before, now).flatMap((part) =>
        part.value.map((text): ReadingDiffLine => ({ change: part.added ? 'added' : part.removed ? 'removed' : 'same', text })),
      );
      previous = { templateVersion: earlier.version, diff };
    }
  }
  const answer: PageExplanation = {
    page,
    selfCheck: selfCheckVerdict(explanation.result, template !== undefined),
    layout: explanation.layout,
    readAlone: explanation.readAlone,
    lines: explanation.lines,
    keptText: explanation.result.text,
    matchesStored: explanation.result.text === page.mainText,
    previous,
  };
  return { explanation: answer, html };
}

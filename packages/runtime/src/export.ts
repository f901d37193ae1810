import { siteWarc, WARC_CONTENT_TYPE } from '@winnow/archive';
import { EXPORT_FORMATS, type ExportFormat } from '@winnow/config';
import { siteExtractions } from '@winnow/storage';
import { stringify } from 'csv-stringify/sync';
import { InvalidRequestError, requireSite } from './operations.js';
import type { Runtime } from './runtime.js';

/** Pages read per round trip: an export never holds more of a site in memory. */
const BATCH = 500;

/** A site's export: what it is, and its bytes as they are read. */
export interface SiteExport {
  contentType: string;
  /** A file name for it: `<site>.jsonl`, `<site>.csv`, `<site>.warc.gz`. */
  fileName: string;
  chunks: AsyncIterable<string | Buffer>;
}

/** `format` as given (a query parameter, a flag), checked: jsonl unless given. */
export function exportFormat(format: unknown): ExportFormat {
  if (format === undefined) return 'jsonl';
  if (typeof format !== 'string' || !(EXPORT_FORMATS as readonly string[]).includes(format)) {
    throw new InvalidRequestError(`format must be one of ${EXPORT_FORMATS.join(', ')}`);
  }
  return format as ExportFormat;
}

/** The columns of jsonl and csv exports, in order. */
const COLUMNS = ['url', 'title', 'page_title', 'main_text', 'method', 'template_version', 'extracted_at', 'duplicate_of'] as const;

/**
 * A site's export, streamed a batch of pages at a time (a large site is never in memory at once):
 *
 * - `jsonl` and `csv`: each page with an extraction of its current body, by page id: its URL,
 *   title (the article's headline) and page title (its `<title>`), as its search document has
 *   them, main text, the method and template version that read it, when, and the page whose
 *   document stands for it when the index files it as a duplicate (else null/empty). CSV is RFC
 *   4180 with a header row (csv-stringify).
 * - `warc`: the site's fetches as a WARC file (gzip members), whatever holds the bodies
 *   (`siteWarc`): records an object store holds are copied, the others built.
 */
export async function exportSite(rt: Runtime, name: string, format: ExportFormat): Promise<SiteExport> {
  const site = await requireSite(rt, name);
  if (format === 'warc') {
    return {
      contentType: WARC_CONTENT_TYPE,
      fileName: `${site.name}.warc.gz`,
      chunks: siteWarc(rt.db, rt.bodies, rt.archive?.store, { id: site.id, name: site.name, rendered: site.config.render === 'browser' }),
    };
  }
  async function* lines(): AsyncGenerator<string> {
    for (let afterId = 0, first = true; ; first = false) {
      const pages = await siteExtractions(rt.db, site.id, afterId, BATCH);
      if (pages.length === 0 && !first) return;
      const rows = pages.map((page) => ({
        url: page.url,
        title: page.title,
        page_title: page.pageTitle,
        main_text: page.mainText,
        method: page.method,
        template_version: page.templateVersion,
        extracted_at: page.extractedAt.toISOString(),
        duplicate_of: page.duplicateOf,
      }));
      if (format === 'csv') yield stringify(rows, { header: first, columns: [...COLUMNS] });
      else if (rows.length > 0) yield rows.map((row) => `${JSON.stringify(row)}\n`).join('');
      if (pages.length < BATCH) return;
      afterId = pages.at(-1)?.pageId ?? afterId;
    }
  }
  return {
    contentType: format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8',
    fileName: `${site.name}.${format}`,
    chunks: lines(),
  };
}

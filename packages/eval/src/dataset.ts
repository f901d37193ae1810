import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { z } from 'zod';

/**
 * A page whose site is unknown (an empty `site`, as some wcxb pages have) is its own site, named
 * after its id: it is scored like any page and never pooled with other unknown pages. Of the
 * dataset's `meta`, only `gold_token_coverage_in_html` is read (the share of the gold's distinct
 * words that the page's text holds, which the shared datasets record to flag gold that does not
 * match its HTML: `goldMismatch`), and wcxb's `with`/`without` snippets (text the main content
 * must hold and must not), which its benchmark scores beside word F1 (`wcxbPageScore`).
 */
const pageSchema = z
  .object({
    id: z.string().min(1),
    site: z.string(),
    url: z.string().nullable().optional(),
    html: z.string(),
    gold: z.string(),
    meta: z
      .object({
        gold_token_coverage_in_html: z.number().min(0).max(1).nullable().optional(),
        with: z.array(z.string()).nullable().optional(),
        without: z.array(z.string()).nullable().optional(),
      })
      .optional(),
  })
  .transform(({ meta, ...page }) => ({
    ...page,
    site: page.site === '' ? `(unknown site) ${page.id}` : page.site,
    ...(typeof meta?.gold_token_coverage_in_html === 'number' ? { goldCoverage: meta.gold_token_coverage_in_html } : {}),
    ...(meta?.with || meta?.without ? { snippets: { with: meta.with ?? [], without: meta.without ?? [] } } : {}),
  }));

/**
 * One evaluation page: a real page's HTML and its gold-standard main text, with the share of the
 * gold's words found in the page (`goldCoverage`) where the dataset measured it.
 */
export type GoldPage = z.output<typeof pageSchema>;

/**
 * Gold holding less than this share of its distinct words in the page's text does not match the
 * page (a page rendered by JavaScript, a stub, gold taken from another page of a paginated
 * article): the shared datasets' own flag (their README), not a value chosen here.
 */
export const GOLD_MISMATCH_COVERAGE = 0.5;

/**
 * dragnet's separator between an article and its user comments (`!@#$%^&*()  COMMENTS`), by which
 * its gold is defined as the text before it (its SOURCE.md), in any of the spellings its pages use
 * (`!@ $%^&*() COMMENTS`, `#$%^&*() COMMENTS`, ...): a run of those symbols, then the word.
 */
const COMMENTS_SEPARATOR = /^[!@#$%^&*() ]{6,}COMMENTS\s*$/m;

/**
 * Whether the page's gold is not the text of its HTML: the dataset says so (`GOLD_MISMATCH_COVERAGE`);
 * or the gold holds no word at all outside HTML comments, its annotators having found no article on
 * the page (cleanportaleval's section fronts, whose gold is empty or `<!-- this page contains no
 * article -->`), against which every text scores 0, the list of stories a section front is read
 * as (what a search engine wants indexed) as much as a sidebar; or the gold still holds the user
 * comments its dataset says it cut (`COMMENTS_SEPARATOR`: six dragnet pages, 107 to 45,000 words of
 * comments each, whose separator's spelling the dataset's conversion missed).
 */
export function goldMismatch(page: GoldPage): boolean {
  const noArticle = !/[\p{L}\p{N}]/u.test(page.gold.replace(/<!--[\s\S]*?-->/g, ''));
  const keptComments = COMMENTS_SEPARATOR.test(page.gold);
  return noArticle || keptComments || (page.goldCoverage !== undefined && page.goldCoverage < GOLD_MISMATCH_COVERAGE);
}

/** A malformed dataset line, named by file and line so it can be found and fixed. */
export class DatasetError extends Error {
  override readonly name = 'DatasetError';
}

/**
 * Reads evaluation pages from a `pages.jsonl.gz` file (gzip JSON Lines: `{id, site, url, html,
 * gold, meta}`) or from every such file under a folder, in a stable order (files by path, lines as
 * stored). A line that is not a valid page stops the load with its file and line number: scores
 * computed on silently skipped pages would not be comparable.
 */
export async function loadPages(fileOrFolder: string): Promise<GoldPage[]> {
  const files = await datasetFiles(fileOrFolder);
  if (files.length === 0) throw new DatasetError(`no .jsonl.gz files under ${fileOrFolder}`);
  const pages: GoldPage[] = [];
  for (const file of files) {
    const lines = createInterface({ input: createReadStream(file).pipe(createGunzip()), crlfDelay: Infinity });
    let lineNumber = 0;
    for await (const line of lines) {
      lineNumber++;
      if (line.trim() === '') continue;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (error) {
        throw new DatasetError(`${file}:${lineNumber}: not JSON (${(error as Error).message})`);
      }
      const parsed = pageSchema.safeParse(value);
      if (!parsed.success) throw new DatasetError(`${file}:${lineNumber}: ${z.prettifyError(parsed.error)}`);
      pages.push(parsed.data);
    }
  }
  return pages;
}

async function datasetFiles(fileOrFolder: string): Promise<string[]> {
  const info = await stat(fileOrFolder).catch(() => {
    throw new DatasetError(`no such file or folder: ${fileOrFolder}`);
  });
  if (info.isFile()) return [fileOrFolder];
  const entries = await readdir(fileOrFolder, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.jsonl.gz'))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

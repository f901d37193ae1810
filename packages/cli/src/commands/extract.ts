import { readFile } from 'node:fs/promises';
import { buffer } from 'node:stream/consumers';
import { Fetcher, type FetchedResponse, FetchError } from '@winnow/crawler';
import { decodeHtml, documentTitle, SINGLE_PAGE_METHOD_NAMES, singlePageMethodByName, wordCount } from '@winnow/extract';
import { commandEnv } from '../commandEnv.js';
import { UsageError } from '../usageError.js';
import { asJson, write } from './output.js';

/** Redirects followed at most, each target judged by the network policy as the first URL was. */
const MAX_REDIRECTS = 5;

/** What `winnow extract --json` prints. */
export interface SinglePageReading {
  /** The URL read (after redirects), or the file's path (`-`: standard input). */
  source: string;
  title: string | null;
  method: string;
  words: number;
  warnings: string[];
  text: string;
}

interface ExtractFlags {
  json?: boolean;
  method?: string;
  allowPrivate?: boolean;
}

/**
 * `winnow extract <url|file>`: one page read on its own by a single-page method (the fallback,
 * `WINNOW_FALLBACK_METHOD`, `reader` by default), as trafilatura does: its main text on stdout,
 * or with `--json` the reading with its title, method and warnings. No database, queue or index is
 * opened. A URL is fetched by the crawler's fetcher under the crawler's network policy: no private,
 * loopback or metadata address (unless `--allow-private`; metadata never), a body no larger than
 * `WINNOW_MAX_PAGE_BYTES`, within `WINNOW_FETCH_TIMEOUT_MS`, with the crawler's User-Agent; redirects
 * are followed, each target judged anew. A file is read from disk (`-`: standard input), its
 * encoding detected as a fetched page's is.
 */
export async function extractCommand(target: string, flags: ExtractFlags): Promise<void> {
  const env = commandEnv();
  const methodName = flags.method ?? env.WINNOW_FALLBACK_METHOD;
  if (!SINGLE_PAGE_METHOD_NAMES.includes(methodName)) {
    throw new UsageError(`unknown single-page method "${methodName}"; known: ${SINGLE_PAGE_METHOD_NAMES.join(', ')}`);
  }
  const isUrl = /^https?:\/\//i.test(target);
  if (!isUrl && flags.allowPrivate) throw new UsageError('--allow-private is for a URL: a file is read from disk');
  const page = isUrl
    ? await fetchPage(
        target,
        { userAgent: env.WINNOW_USER_AGENT, maxBytes: env.WINNOW_MAX_PAGE_BYTES, timeoutMs: env.WINNOW_FETCH_TIMEOUT_MS },
        flags.allowPrivate === true,
      )
    : { source: target, body: await readSource(target), contentType: undefined };
  let html: string;
  let decodeWarnings: string[];
  try {
    ({ html, warnings: decodeWarnings } = decodeHtml(page.body, page.contentType));
  } catch (error) {
    throw new Error(`${page.source} cannot be read as HTML: ${(error as Error).message}`);
  }
  const result = singlePageMethodByName(methodName).extract(html);
  const reading: SinglePageReading = {
    source: page.source,
    title: documentTitle(html) || null,
    method: result.method,
    words: wordCount(result.text),
    warnings: [...decodeWarnings, ...result.warnings],
    text: result.text,
  };
  if (flags.json) return void write(asJson(reading));
  for (const warning of reading.warnings) process.stderr.write(`warning: ${warning}\n`);
  write(reading.text === '' ? '' : `${reading.text}\n`);
}

async function readSource(path: string): Promise<Buffer> {
  if (path === '-') return buffer(process.stdin);
  try {
    return await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`cannot read ${path}: ${code === 'ENOENT' ? 'no such file (a URL starts with http:// or https://)' : (error as Error).message}`);
  }
}

/** Fetches a page as the crawler would, following redirects; refuses what is not a 2xx HTML answer, saying why. */
async function fetchPage(
  url: string,
  options: { userAgent: string; maxBytes: number; timeoutMs: number },
  allowPrivate: boolean,
): Promise<{ source: string; body: Buffer; contentType: string | undefined }> {
  const fetcher = new Fetcher(options);
  try {
    let current = url;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      let response: FetchedResponse;
      try {
        response = await fetcher.fetch({ url: current, allowPrivate, headers: { accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5' } });
      } catch (error) {
        if (!(error instanceof FetchError)) throw error;
        const hint = error.code === 'refused' && !allowPrivate ? ' (a page on this machine or a private network needs --allow-private)' : '';
        throw new Error(`${current}: ${error.message}${hint}`);
      }
      const { status, headers } = response;
      if (status >= 300 && status < 400 && headers.location) {
        current = new URL(headers.location, current).href;
        continue;
      }
      if (status < 200 || status >= 300) throw new Error(`${current} answered HTTP ${status}`);
      const type = headers['content-type']?.split(';')[0]?.trim().toLowerCase();
      if (type && type !== 'text/html' && type !== 'application/xhtml+xml') throw new Error(`${current} is not HTML: ${type}`);
      return { source: current, body: response.body, contentType: headers['content-type'] };
    }
    throw new Error(`${url}: more than ${MAX_REDIRECTS} redirects`);
  } finally {
    await fetcher.close();
  }
}

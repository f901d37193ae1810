import { CheerioCrawler, type CheerioCrawlingContext } from '@crawlee/cheerio';
import { Configuration, log as crawleeLog, RequestQueue } from '@crawlee/core';
import { allowedGlobs, type SiteConfig } from '@winnow/config';
import type { Runtime } from '@winnow/runtime';
import { countCrawlPage, countStoredPages, findCrawl, findSiteById, finishCrawl, markCrawlRunning, storeRawPage, upsertFetchedPage } from '@winnow/storage';

crawleeLog.setLevel(crawleeLog.LEVELS.WARNING);

/** The media types a stored page may have: what the extractor can read. */
const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

/** After this many stored pages a site without templates gets its first preparation. */
export function firstTemplateThreshold(config: SiteConfig): number {
  return 2 * config.minTemplatePages;
}

export interface CrawlOutcome {
  state: 'finished' | 'stopped' | 'failed';
  stored: number;
  rejected: number;
}

/**
 * Runs one crawl of a site with Crawlee's CheerioCrawler: seeds first, then links within the
 * site's allowed globs up to `maxDepth` and `maxPages`, honouring robots.txt. Every response is
 * recorded against its URL; an HTML body is stored once by content hash and its page id is
 * enqueued for extraction; an oversized, non-HTML or HTTP-error response is recorded with the
 * reason and not extracted. Crawlee decodes a body by its charset and hands it over as text: it
 * is stored as UTF-8 and the page's content type says so (the original header is kept with the
 * other headers). The crawl's row is read between requests, so an operator's stop takes effect
 * within one request per crawler task.
 */
export async function runCrawl(rt: Runtime, crawlId: number): Promise<CrawlOutcome> {
  const crawl = await findCrawl(rt.db, crawlId);
  if (!crawl) throw new Error(`crawl ${crawlId} does not exist`);
  const site = await findSiteById(rt.db, crawl.siteId);
  if (!site) throw new Error(`the site of crawl ${crawlId} no longer exists`);
  if (crawl.state === 'stopping') {
    await finishCrawl(rt.db, crawlId, 'finished');
    return { state: 'stopped', stored: 0, rejected: 0 };
  }
  await markCrawlRunning(rt.db, crawlId);
  const config = site.config;
  const log = rt.log.child({ site: site.name, crawl: crawlId });
  // Each crawl gets its own in-memory Crawlee storage: nothing is written to disk or shared.
  const crawleeConfig = new Configuration({ persistStorage: false, purgeOnStart: true });
  const requestQueue = await RequestQueue.open(`crawl-${crawlId}-${Date.now()}`, { config: crawleeConfig });
  let stored = 0;
  let rejected = 0;
  let stopRequested = false;
  let templateRequested = site.templateVersion > 0;

  const record = async (url: string, fields: { status: number | null; headers: Record<string, string>; contentType: string | null; body?: Uint8Array; error?: string }) => {
    const contentHash = fields.body ? await storeRawPage(rt.db, fields.body) : null;
    const pageId = await upsertFetchedPage(rt.db, {
      siteId: site.id,
      url,
      crawlId,
      status: fields.status,
      headers: fields.headers,
      contentType: fields.body ? 'text/html; charset=utf-8' : fields.contentType,
      contentHash,
      fetchError: fields.error ?? null,
    });
    await countCrawlPage(rt.db, crawlId, contentHash ? 'stored' : 'rejected');
    if (contentHash) {
      stored++;
      await rt.queues.add('extract', { pageId });
      if (!templateRequested && (await countStoredPages(rt.db, site.id)) >= firstTemplateThreshold(config)) {
        templateRequested = true;
        await rt.queues.add('template', { siteId: site.id, reason: 'first-pages' }, { deduplication: { id: `first-pages-${site.id}` } });
      }
    } else {
      rejected++;
      log.info({ url, reason: fields.error }, 'page not stored');
    }
  };

  const crawler = new CheerioCrawler(
    {
      requestQueue,
      maxRequestsPerCrawl: config.maxPages,
      maxConcurrency: config.concurrency,
      respectRobotsTxtFile: true,
      maxRequestRetries: 2,
      // Every response reaches the handler, so a non-HTML one is recorded at once, not retried.
      additionalMimeTypes: ['*/*'],
      requestHandler: async (context) => {
        if (await isStopRequested(rt, crawlId)) {
          stopRequested = true;
          crawler.stop('stop requested by an operator');
          return;
        }
        await handlePage(context, rt.env.WINNOW_MAX_PAGE_BYTES, record);
        const depth = Number(context.request.userData.depth ?? 0);
        if (depth < config.maxDepth && HTML_TYPES.has(context.contentType.type)) {
          await context.enqueueLinks({
            globs: allowedGlobs(config),
            transformRequestFunction: (request) => ({ ...request, userData: { depth: depth + 1 } }),
          });
        }
        // Politeness: the task pauses before its next request (Crawlee's sameDomainDelaySecs
        // does not apply to IP-address hosts, which is what local and intranet sites often are).
        if (config.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, config.delayMs));
      },
      failedRequestHandler: async ({ request, response }, error) => {
        await record(request.loadedUrl ?? request.url, { status: response?.statusCode ?? null, headers: {}, contentType: null, error: `fetch failed: ${error.message.split('\n')[0]}` });
      },
    },
    crawleeConfig,
  );

  try {
    await crawler.run(config.seeds.map((url) => ({ url, userData: { depth: 0 } })));
  } catch (error) {
    await finishCrawl(rt.db, crawlId, 'failed', (error as Error).message);
    throw error;
  } finally {
    await requestQueue.drop().catch(() => undefined);
  }
  await finishCrawl(rt.db, crawlId, 'finished');
  await rt.queues.add('template', { siteId: site.id, reason: 'crawl-finished' });
  log.info({ stored, rejected }, 'crawl done');
  return { state: stopRequested ? 'stopped' : 'finished', stored, rejected };
}

async function isStopRequested(rt: Runtime, crawlId: number): Promise<boolean> {
  const crawl = await findCrawl(rt.db, crawlId);
  return !crawl || crawl.state === 'stopping';
}

type Recorder = (url: string, fields: { status: number | null; headers: Record<string, string>; contentType: string | null; body?: Uint8Array; error?: string }) => Promise<void>;

async function handlePage(context: CheerioCrawlingContext, maxBytes: number, record: Recorder): Promise<void> {
  const { request, response, body, contentType } = context;
  const url = request.loadedUrl ?? request.url;
  const status = response.statusCode ?? null;
  const headers = Object.fromEntries(Object.entries(response.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : String(value ?? '')]));
  const originalType = headers['content-type'] ?? null;
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body);
  if (status !== null && status >= 400) return record(url, { status, headers, contentType: originalType, error: `HTTP ${status}` });
  if (!HTML_TYPES.has(contentType.type)) return record(url, { status, headers, contentType: originalType, error: `not HTML: ${contentType.type || 'no content type'}` });
  if (bytes.byteLength > maxBytes) return record(url, { status, headers, contentType: originalType, error: `body of ${bytes.byteLength} bytes exceeds the limit of ${maxBytes}` });
  if (bytes.byteLength === 0) return record(url, { status, headers, contentType: originalType, error: 'empty body' });
  return record(url, { status, headers, contentType: originalType, body: bytes });
}

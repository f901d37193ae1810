import { existsSync } from 'node:fs';
import { CheerioCrawler } from '@crawlee/cheerio';
import { PlaywrightCrawler } from '@crawlee/playwright';
import { chromium, type Page } from 'playwright';
import { Configuration, log as crawleeLog, RequestQueue, type RequestOptions } from '@crawlee/core';
import { allowedGlobs, type SiteConfig } from '@winnow/config';
import { UnrecoverableError } from '@winnow/queue';
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
 * Runs one crawl of a site with Crawlee — CheerioCrawler, or PlaywrightCrawler in the system
 * Chromium for a site configured with `render: browser` — seeds first, then links within the
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
  const config = site.config;
  if (config.render === 'browser' && !existsSync(rt.env.WINNOW_CHROMIUM_PATH)) {
    const message = `site "${site.name}" is rendered in a browser, but there is no Chromium at ${rt.env.WINNOW_CHROMIUM_PATH}: install it (Debian: apt-get install chromium) or set WINNOW_CHROMIUM_PATH`;
    await finishCrawl(rt.db, crawlId, 'failed', message);
    throw new UnrecoverableError(message);
  }
  await markCrawlRunning(rt.db, crawlId);
  const log = rt.log.child({ site: site.name, crawl: crawlId });
  // Each crawl gets its own in-memory Crawlee storage: nothing is written to disk or shared.
  const crawleeConfig = new Configuration({ persistStorage: false, purgeOnStart: true });
  const requestQueue = await RequestQueue.open(`crawl-${crawlId}-${Date.now()}`, { config: crawleeConfig });
  let stored = 0;
  let rejected = 0;
  let stopRequested = false;
  let templateRequested = site.templateVersion > 0;

  const record: Recorder = async (url, fields) => {
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

  /** What both crawler kinds do with a page: stop if asked, record it, follow its links, pause. */
  const onPage = async (fetched: FetchedPage, depth: number, enqueueLinks: EnqueueLinks, stop: () => void) => {
    if (await isStopRequested(rt, crawlId)) {
      stopRequested = true;
      stop();
      return;
    }
    await recordFetched(fetched, rt.env.WINNOW_MAX_PAGE_BYTES, record);
    if (depth < config.maxDepth && HTML_TYPES.has(fetched.mediaType)) {
      await enqueueLinks({ globs: allowedGlobs(config), transformRequestFunction: (request) => ({ ...request, userData: { depth: depth + 1 } }) });
    }
    // Politeness: the task pauses before its next request (Crawlee's sameDomainDelaySecs
    // does not apply to IP-address hosts, which is what local and intranet sites often are).
    if (config.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, config.delayMs));
  };
  const common = {
    requestQueue,
    maxRequestsPerCrawl: config.maxPages,
    maxConcurrency: config.concurrency,
    respectRobotsTxtFile: true,
    maxRequestRetries: 2,
    failedRequestHandler: async ({ request }: { request: { url: string; loadedUrl?: string } }, error: Error) => {
      await record(request.loadedUrl ?? request.url, { status: null, headers: {}, contentType: null, error: `fetch failed: ${error.message.split('\n')[0]}` });
    },
  };

  const crawler =
    config.render === 'browser'
      ? new PlaywrightCrawler(
          {
            ...common,
            ...browserOptions(rt.env.WINNOW_CHROMIUM_PATH),
            requestHandler: async ({ request, response, page, enqueueLinks }) => {
              const html = await page.content();
              const headers = (await response?.allHeaders()) ?? {};
              const fetched: FetchedPage = {
                url: request.loadedUrl ?? request.url,
                status: response?.status() ?? null,
                headers,
                mediaType: mediaTypeOf(headers['content-type']),
                body: Buffer.from(html, 'utf8'),
              };
              await onPage(fetched, Number(request.userData.depth ?? 0), enqueueLinks, () => crawler.stop('stop requested by an operator'));
            },
          },
          crawleeConfig,
        )
      : new CheerioCrawler(
          {
            ...common,
            // Every response reaches the handler, so a non-HTML one is recorded at once, not retried.
            additionalMimeTypes: ['*/*'],
            requestHandler: async ({ request, response, body, contentType, enqueueLinks }) => {
              const headers = Object.fromEntries(Object.entries(response.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : String(value ?? '')]));
              const fetched: FetchedPage = {
                url: request.loadedUrl ?? request.url,
                status: response.statusCode ?? null,
                headers,
                mediaType: contentType.type,
                body: typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body),
              };
              await onPage(fetched, Number(request.userData.depth ?? 0), enqueueLinks, () => crawler.stop('stop requested by an operator'));
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
type EnqueueLinks = (options: { globs: string[]; transformRequestFunction: (request: RequestOptions) => RequestOptions }) => Promise<unknown>;

/** A response as either crawler kind saw it; the body is the page's HTML as UTF-8. */
interface FetchedPage {
  url: string;
  status: number | null;
  headers: Record<string, string>;
  mediaType: string;
  body: Buffer;
}

function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

async function recordFetched(fetched: FetchedPage, maxBytes: number, record: Recorder): Promise<void> {
  const { url, status, headers, mediaType, body } = fetched;
  const originalType = headers['content-type'] ?? null;
  const refuse = (error: string) => record(url, { status, headers, contentType: originalType, error });
  if (status !== null && status >= 400) return refuse(`HTTP ${status}`);
  if (!HTML_TYPES.has(mediaType)) return refuse(`not HTML: ${mediaType || 'no content type'}`);
  if (body.byteLength > maxBytes) return refuse(`body of ${body.byteLength} bytes exceeds the limit of ${maxBytes}`);
  if (body.byteLength === 0) return refuse('empty body');
  return record(url, { status, headers, contentType: originalType, body });
}

/**
 * PlaywrightCrawler settings for the system Chromium (a browser download cannot work here). The
 * proxy that answers nothing, bypassed for loopback, keeps Chromium and Crawlee's helpers from
 * contacting any outside host (see ../shared/machine-notes.md); images, media and fonts are not
 * fetched, since only the DOM matters.
 */
function browserOptions(executablePath: string) {
  return {
    launchContext: {
      launcher: chromium,
      useChrome: false,
      launchOptions: {
        executablePath,
        headless: true,
        proxy: { server: 'http://127.0.0.1:9', bypass: '127.0.0.1,localhost' },
        args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      },
    },
    browserPoolOptions: { useFingerprints: false },
    headless: true,
    preNavigationHooks: [
      async ({ page }: { page: Page }) => {
        await page.route('**/*', (route) => (BLOCKED_RESOURCES.has(route.request().resourceType()) ? route.abort() : route.continue()));
      },
    ],
  };
}

const BLOCKED_RESOURCES = new Set(['image', 'media', 'font']);

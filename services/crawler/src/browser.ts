import { launchChromium } from '@winnow/render';
import type { Browser, Route } from 'playwright-core';
import { type FetchedResponse, FetchError } from './fetcher.js';

/** What only the layout needs: never fetched for a crawl that reads the DOM. */
const SKIPPED_RESOURCES: ReadonlySet<string> = new Set(['image', 'media', 'font', 'manifest', 'texttrack', 'eventsource', 'websocket', 'ping', 'other']);
/** Headers of a fetched response that no longer describe the body handed to Chromium (it is decompressed and whole). */
const STALE_HEADERS: ReadonlySet<string> = new Set(['content-encoding', 'content-length', 'transfer-encoding', 'connection', 'keep-alive']);

export interface RenderRequest {
  url: string;
  /** Fetches one GET request for Chromium, through the crawler's network policy. */
  fetch(url: string, headers: Record<string, string>): Promise<FetchedResponse>;
  /** Why Chromium may not navigate the page to `url` (outside the site's allowed URLs), or null. */
  refusedNavigation(url: string): string | null;
  timeoutMs: number;
}

/** The page as Chromium left it: the main document's last response, with the DOM serialised as its body. */
export interface RenderedPage {
  url: string;
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * JavaScript-built pages, rendered in the system Chromium (Playwright, no download). Chromium
 * fetches nothing itself: every request a page makes is routed to the crawler, which fetches it
 * through the same network policy, User-Agent and byte limit as any other request, or refuses it
 * (images, media and fonts are never needed for the DOM; only GET is sent; navigation of the page
 * outside the site's allowed URLs is refused). Service workers are blocked, each page gets a fresh
 * context (no cookies shared between pages), and Chromium is launched with a pipe, not a port.
 * `proxy` (`WINNOW_BROWSER_PROXY`) also sends Chromium's own background traffic to a proxy: tests
 * point it at one that answers nothing, so they can never reach an outside host.
 */
export class BrowserRenderer {
  private constructor(private readonly browser: Browser) {}

  static async launch(executablePath: string, proxy: string | undefined): Promise<BrowserRenderer> {
    return new BrowserRenderer(await launchChromium(executablePath, 'the crawler renders this site in a browser', proxy));
  }

  async render(request: RenderRequest): Promise<RenderedPage> {
    const context = await this.browser.newContext({ serviceWorkers: 'block', acceptDownloads: false });
    try {
      const page = await context.newPage();
      let main: FetchedResponse | undefined;
      let refusal: Error | undefined;
      await page.route('**/*', async (route: Route) => {
        const sent = route.request();
        const isMainDocument = sent.isNavigationRequest() && sent.frame() === page.mainFrame();
        const url = sent.url();
        if (sent.method() !== 'GET' || SKIPPED_RESOURCES.has(sent.resourceType()) || !/^https?:/i.test(url)) return route.abort('blockedbyclient');
        const refused = isMainDocument ? request.refusedNavigation(url) : null;
        if (refused) {
          refusal = new FetchError('refused', refused);
          return route.abort('blockedbyclient');
        }
        try {
          const response = await request.fetch(url, { accept: sent.headers().accept ?? '*/*' });
          if (isMainDocument) main = response;
          const headers = Object.fromEntries(Object.entries(response.headers).filter(([name]) => !STALE_HEADERS.has(name)));
          await route.fulfill({ status: response.status, headers, body: response.body });
        } catch (error) {
          if (isMainDocument) refusal = error instanceof Error ? error : new Error(String(error));
          await route.abort('failed').catch(() => undefined);
        }
      });
      try {
        await page.goto(request.url, { waitUntil: 'load', timeout: request.timeoutMs });
      } catch (error) {
        if (refusal) throw refusal;
        if (!main) throw new FetchError('unreachable', `the browser could not load the page: ${(error as Error).message.split('\n')[0]}`, true);
      }
      if (!main) throw refusal ?? new FetchError('bad-response', 'the browser received no document');
      // Scripts that fill the page after `load` get a short moment to finish.
      await page.waitForLoadState('networkidle', { timeout: 2000 }).catch(() => undefined);
      const html = await page.content();
      return { url: page.url(), status: main.status, headers: main.headers, body: Buffer.from(html, 'utf8') };
    } finally {
      await context.close().catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    await this.browser.close();
  }
}

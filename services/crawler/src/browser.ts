import { launchChromium } from '@winnow/render';
import type { Browser, Route } from 'playwright-core';
import { type FetchedResponse, FetchError } from './fetcher.js';

/** What only the layout needs: never fetched for a crawl that reads the DOM. */
const SKIPPED_RESOURCES: ReadonlySet<string> = new Set(['image', 'media', 'font', 'manifest', 'texttrack', 'eventsource', 'websocket', 'ping', 'other']);
/** Headers of a fetched response that no longer describe the body handed to Chromium (it is decompressed and whole). */
const STALE_HEADERS: ReadonlySet<string> = new Set(['content-encoding', 'content-length', 'transfer-encoding', 'connection', 'keep-alive']);

/** Redirects of one subresource the crawler follows, each hop judged, before it gives up. */
const MAX_SUBRESOURCE_REDIRECTS = 5;

/**
 * Runs first in every frame. Only the page being rendered may load anything: `window.open` opens
 * nothing (popups would be pages of their own). WebRTC is removed: its STUN and TURN traffic is
 * Chromium's own, which no route sees (the launch flag stops its UDP, not TCP to a TURN server).
 * Workers are removed: a worker's WebSocket escapes `routeWebSocket`, which works in frames only.
 */
const LOCKDOWN = () => {
  const scope = globalThis as unknown as Record<string, unknown>;
  Object.defineProperty(globalThis, 'open', { value: () => null, writable: false, configurable: false });
  for (const name of ['RTCPeerConnection', 'webkitRTCPeerConnection', 'Worker', 'SharedWorker']) delete scope[name];
};

/** A document or subresource: a private address may be allowed for the first, only on the site's own origins for the other. */
export type RequestKind = 'document' | 'subresource';

export interface RenderRequest {
  url: string;
  /**
   * Fetches one GET request for Chromium, through the crawler's network policy: `document` for a
   * navigation of the page being rendered, `subresource` for anything it loads (frames included).
   */
  fetch(url: string, headers: Record<string, string>, kind: RequestKind): Promise<FetchedResponse>;
  timeoutMs: number;
}

/**
 * The page as Chromium left it: the main document's last response, with the DOM serialised as its
 * body; or, when the document answered with a redirect, that response (its `location` for the
 * caller to judge, as for any redirect) with an empty body.
 */
export interface RenderedPage {
  url: string;
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * JavaScript-built pages, rendered in the system Chromium (Playwright, no download). Chromium
 * fetches nothing itself: every request of the browser context is routed to the crawler, which
 * fetches it through the same network policy, User-Agent and byte limit as any other request, or
 * refuses it (images, media and fonts are never needed for the DOM; only GET is sent). A page that
 * navigates itself away once loaded (a script, a form, a meta refresh) is kept as it was: its
 * navigations are cancelled, never fetched; a target the site links to is crawled as any link. Routes are the context's, not the page's,
 * and any other page (a popup) is closed with its requests refused: a page-level route would leave
 * a popup's requests to Chromium. Chromium never follows a redirect itself (it would fetch the
 * target unrouted): the document's comes back to the caller, a subresource's is followed here, each
 * hop fetched through the policy again. WebSockets and WebRTC are refused; service workers are
 * blocked; each page gets a fresh context (no cookies shared between pages), and Chromium is
 * launched with a pipe, not a port, unable to resolve a host or connect to any address
 * (`launchChromium`): what it would fetch around the routes (speculation rules' prefetches and
 * prerenders, preconnects, background traffic) fails. `proxy` (`WINNOW_BROWSER_PROXY`) is never
 * reached either: tests point it at one that forwards only to loopback, to see what would leak.
 */
export class BrowserRenderer {
  private constructor(
    private readonly browser: Browser,
    private readonly settleMs: number,
  ) {}

  /** `settleMs` (`WINNOW_BROWSER_SETTLE_MS`): how long a page's scripts may go on fetching after `load`. */
  static async launch(executablePath: string, proxy: string | undefined, settleMs: number): Promise<BrowserRenderer> {
    return new BrowserRenderer(await launchChromium(executablePath, 'the crawler renders this site in a browser', proxy), settleMs);
  }

  async render(request: RenderRequest): Promise<RenderedPage> {
    const context = await this.browser.newContext({ serviceWorkers: 'block', acceptDownloads: false });
    try {
      await context.addInitScript(LOCKDOWN);
      // Not connected to any server: a WebSocket is not a GET the crawler could fetch.
      await context.routeWebSocket(/.*/, (socket) => socket.close());
      const page = await context.newPage();
      // Registered once the page exists: every page after it is a popup.
      context.on('page', (other) => void other.close().catch(() => undefined));
      let main: FetchedResponse | undefined;
      let refusal: Error | undefined;
      await context.route('**/*', async (route: Route) => {
        const sent = route.request();
        let isMainDocument: boolean;
        try {
          if (sent.frame().page() !== page) return await route.abort('blockedbyclient');
          isMainDocument = sent.isNavigationRequest() && sent.frame() === page.mainFrame();
        } catch {
          // A request of no frame (a worker's, a popup's before it has one) is no request of the page.
          return await route.abort('blockedbyclient').catch(() => undefined);
        }
        const url = sent.url();
        if (isMainDocument && main !== undefined) {
          // The page navigates itself away (a script's `location`, a form submit, a meta refresh):
          // the page is what it showed until then, so the navigation is cancelled, never fetched.
          // Cancelled as "aborted", Chromium keeps the document (a refusal would replace it with
          // its error page, "… is blocked … ERR_BLOCKED_BY_CLIENT").
          return await route.abort('aborted').catch(() => undefined);
        }
        if (sent.method() !== 'GET' || SKIPPED_RESOURCES.has(sent.resourceType()) || !/^https?:/i.test(url)) return route.abort('blockedbyclient');
        const headers = { accept: sent.headers().accept ?? '*/*' };
        try {
          const response = isMainDocument ? await request.fetch(url, headers, 'document') : await fetchSubresource(request, url, headers);
          if (isMainDocument) main = response;
          // The document's redirect ends the render: handed to Chromium, it would be followed unrouted.
          if (isRedirect(response)) return await route.abort('blockedbyclient');
          const kept = Object.fromEntries(Object.entries(response.headers).filter(([name]) => !STALE_HEADERS.has(name)));
          await route.fulfill({ status: response.status, headers: kept, body: response.body });
        } catch (error) {
          if (isMainDocument) refusal = error instanceof Error ? error : new Error(String(error));
          await route.abort('failed').catch(() => undefined);
        }
      });
      try {
        await page.goto(request.url, { waitUntil: 'load', timeout: request.timeoutMs });
      } catch (error) {
        if (main && isRedirect(main)) return redirectOf(main);
        if (refusal) throw refusal;
        if (!main) throw new FetchError('unreachable', `the browser could not load the page: ${(error as Error).message.split('\n')[0]}`, true);
      }
      if (!main) throw refusal ?? new FetchError('bad-response', 'the browser received no document');
      // Scripts that fill the page after `load` get a moment to finish: until the network has been
      // idle for 500 ms, at most `settleMs`.
      if (this.settleMs > 0) await page.waitForLoadState('networkidle', { timeout: this.settleMs }).catch(() => undefined);
      // Never store a page Chromium replaced by an error page (its URL is `chrome-error:`).
      if (!/^https?:/i.test(page.url())) throw new FetchError('bad-response', `the browser left the page for ${page.url()}`);
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

function isRedirect(response: FetchedResponse): boolean {
  return response.status >= 300 && response.status < 400 && response.headers.location !== undefined;
}

function redirectOf(response: FetchedResponse): RenderedPage {
  return { url: response.url, status: response.status, headers: response.headers, body: Buffer.alloc(0) };
}

/**
 * A subresource, its redirects followed by the crawler: each hop is a new request through the
 * network policy (Chromium, given the redirect, would fetch the target itself). Followed rather
 * than refused because scripts and data behind a redirect (CDN aliases, `/latest/…`) are common.
 * Chromium receives the last answer as the answer to the URL it asked for.
 */
async function fetchSubresource(request: RenderRequest, url: string, headers: Record<string, string>): Promise<FetchedResponse> {
  let response = await request.fetch(url, headers, 'subresource');
  for (let hop = 0; isRedirect(response); hop++) {
    const target = URL.canParse(response.headers.location as string, response.url) ? new URL(response.headers.location as string, response.url) : undefined;
    if (!target || (target.protocol !== 'http:' && target.protocol !== 'https:'))
      throw new FetchError('refused', `refused: redirect to ${response.headers.location}: not an http(s) URL`);
    if (hop === MAX_SUBRESOURCE_REDIRECTS) throw new FetchError('bad-response', `more than ${MAX_SUBRESOURCE_REDIRECTS} redirects`);
    response = await request.fetch(target.href, headers, 'subresource');
  }
  return response;
}

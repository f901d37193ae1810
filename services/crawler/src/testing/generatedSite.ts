import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { closeServer, listenOnLoopback } from '@winnow/demo-corpus';

/** One request as the server saw it: when it arrived (ms, this process's clock), what, and who asked. */
export interface SeenRequest {
  at: number;
  path: string;
  userAgent: string;
}

export interface GeneratedSiteOptions {
  /** Article pages besides the home page (and listing pages). */
  pages: number;
  /** Added before every answer, as a real server's latency: a fixed delay, or drawn evenly from [min, max]. */
  latencyMs?: number | [number, number];
  /**
   * `chain` (the default): each article links to the next three, a deep site. `listings`: the home
   * page links to listing pages of 20 articles each, a wide one — a frontier with plenty to fetch
   * at once, as a news site's.
   */
  shape?: 'chain' | 'listings';
  robotsTxt?: string;
  /** Answers a path differently; return false to fall through to the generated page. */
  override?: (request: IncomingMessage, response: ServerResponse, seen: number) => boolean;
  /**
   * Answers these paths only once `until` settles: a test keeps a crawl open, and what the crawl
   * finds behind them unfound, until the event it waits for has happened.
   */
  holdBack?: { paths: readonly string[]; until: Promise<unknown> };
}

export interface GeneratedSite {
  origin: string;
  /** Every page's path, the home page first. */
  paths: string[];
  requests: SeenRequest[];
  /** How many times each path was requested. */
  hits(path: string): number;
  close(): Promise<void>;
}

/**
 * A site of `pages` article pages on 127.0.0.1 whose home page and articles link onwards (each
 * article to the next three), with a latency per answer and a log of every request with its
 * arrival time, for tests and benchmarks of the crawler against a server that keeps its own record.
 */
export async function serveGeneratedSite(options: GeneratedSiteOptions): Promise<GeneratedSite> {
  const perListing = 20;
  const listings = options.shape === 'listings' ? Math.ceil(options.pages / perListing) : 0;
  const paths = [
    '/',
    ...Array.from({ length: listings }, (_, i) => `/page/${i + 1}.html`),
    ...Array.from({ length: options.pages }, (_, i) => `/articles/${i + 1}.html`),
  ];
  const known = new Set(paths);
  const requests: SeenRequest[] = [];
  const counts = new Map<string, number>();
  const link = (n: number) => (n >= 1 && n <= options.pages ? `<li><a href="/articles/${n}.html">Article ${n}</a></li>` : '');
  const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);
  const page = (path: string) => {
    const n = path === '/' ? 0 : Number(/(\d+)/.exec(path)?.[1]);
    let links: string;
    if (path.startsWith('/page/'))
      links = range((n - 1) * perListing + 1, perListing)
        .map(link)
        .join('');
    else if (n === 0 && listings > 0)
      links = range(1, listings)
        .map((i) => `<li><a href="/page/${i}.html">Page ${i}</a></li>`)
        .join('');
    else if (n === 0 || listings > 0) links = range(1, 5).map(link).join('');
    else
      links = range(n + 1, 3)
        .map(link)
        .join('');
    return `<!DOCTYPE html><html><head><title>Article ${n}</title></head><body><nav><a href="/">Home</a></nav><article><h1>Article ${n}</h1><p>Article number ${n} of the generated site tells its own short story of the harbour, word ${n * 7} and word ${n * 13}.</p></article><ul class="more">${links}</ul></body></html>`;
  };
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    const seen = (counts.get(path) ?? 0) + 1;
    counts.set(path, seen);
    requests.push({ at: Date.now(), path, userAgent: request.headers['user-agent'] ?? '' });
    const answer = () => {
      if (options.override?.(request, response, seen)) return;
      if (path === '/robots.txt') {
        if (options.robotsTxt === undefined) return void response.writeHead(404).end();
        return void response.writeHead(200, { 'content-type': 'text/plain' }).end(options.robotsTxt);
      }
      if (!known.has(path)) return void response.writeHead(404, { 'content-type': 'text/html' }).end('<p>not found</p>');
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(path));
    };
    const latency = options.latencyMs;
    const delay = Array.isArray(latency) ? latency[0] + Math.random() * (latency[1] - latency[0]) : (latency ?? 0);
    const answerLater = () => {
      if (delay > 0) setTimeout(answer, delay);
      else answer();
    };
    if (options.holdBack?.paths.includes(path)) void options.holdBack.until.then(answerLater);
    else answerLater();
  });
  server.keepAliveTimeout = 60_000;
  const origin = await listenOnLoopback(server);
  return {
    origin,
    paths,
    requests,
    hits: (path) => counts.get(path) ?? 0,
    close: async () => {
      await closeServer(server);
    },
  };
}

/** The smallest gap between two consecutive requests (ms), as the server saw them. */
export function smallestGap(requests: readonly SeenRequest[]): number {
  const times = requests.map((request) => request.at).sort((a, b) => a - b);
  let smallest = Number.POSITIVE_INFINITY;
  for (let i = 1; i < times.length; i++) smallest = Math.min(smallest, (times[i] as number) - (times[i - 1] as number));
  return smallest;
}

import { createServer } from 'node:http';
import { closeServer, type DemoPage, demoSite, listenOnLoopback } from '@winnow/demo-corpus';

/** A local site that serves one demo design until `redesign()`, then another at the same addresses. */
export interface RedesignedSite {
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  /** The pages served now (the new design's after `redesign()`), with their gold text. */
  pages(): readonly DemoPage[];
  /** From now on, the same addresses answer with the new design. */
  redesign(): void;
  /** From now on, every page is served as `change` rewrites its HTML (a line added to every page, say). */
  edit(change: (html: string) => string): void;
  close(): Promise<void>;
}

/**
 * Serves the demo site `ledger` (its articles under `/articles/:n.html`) and, after `redesign()`,
 * `almanac` in their place: a redesign under the templates prepared from the first. Every page is
 * answered after `delayMs`, so that a recrawl at concurrency 1 takes long enough for the extractor
 * to notice the redesign (the drift) before it ends. robots.txt is a 404.
 */
export async function serveRedesignedSite(options: { articles?: number; delayMs?: number } = {}): Promise<RedesignedSite> {
  const articles = options.articles ?? 30;
  const delayMs = options.delayMs ?? 150;
  let pages: DemoPage[] = demoSite('ledger', { articles }).pages;
  const server = createServer((request, response) => {
    const page = pages.find((candidate) => candidate.path === request.url);
    if (request.url === '/robots.txt' || !page) {
      response.writeHead(404).end();
      return;
    }
    setTimeout(() => response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page.html), delayMs);
  });
  const origin = await listenOnLoopback(server);
  return {
    origin,
    pages: () => pages,
    redesign: () => {
      pages = demoSite('almanac', { articles }).pages;
    },
    edit: (change) => {
      pages = pages.map((page) => ({ ...page, html: change(page.html) }));
    },
    close: () => closeServer(server),
  };
}

/** How the tests add the redesigned site: templates from three pages, prepared when asked (no schedule), one fetch at a time. */
export function redesignedSiteConfig(name: string, site: RedesignedSite) {
  return { name, seeds: [`${site.origin}/`], minTemplatePages: 3, templateEveryMs: 0, allowPrivateAddresses: true, concurrency: 1 };
}

import { createServer, type Server } from 'node:http';
import { closeServer, listenOnLoopback } from './loopback.js';
import { demoSite, type DemoPage, type DemoSiteOptions } from './site.js';

export interface ServedDemoSite {
  name: string;
  /** Origin of the site's server, e.g. `http://127.0.0.1:40123`. */
  origin: string;
  pages: DemoPage[];
  /** Gold main text by absolute URL. */
  goldByUrl: Map<string, string>;
}

export interface DemoWeb {
  sites: ServedDemoSite[];
  close(): Promise<void>;
}

/** Disallowed to every crawler, so a crawl that honours robots.txt never fetches it. */
export const ROBOTS_DISALLOWED_PATH = '/private/';

/**
 * Serves demo sites on 127.0.0.1, each on its own ephemeral port (its own origin, as real sites
 * are), with a robots.txt that disallows `/private/`. Only 127.0.0.1 is bound; nothing else is
 * contacted.
 */
export async function serveDemoWeb(names: readonly string[], options: DemoSiteOptions = {}): Promise<DemoWeb> {
  const servers: Server[] = [];
  const sites: ServedDemoSite[] = [];
  try {
    for (const name of names) {
      const site = demoSite(name, options);
      const byPath = new Map(site.pages.map((page) => [page.path, page]));
      const server = createServer((request, response) => {
        const path = new URL(request.url ?? '/', 'http://localhost').pathname;
        if (path === '/robots.txt') {
          response.writeHead(200, { 'content-type': 'text/plain' }).end(`User-agent: *\nDisallow: ${ROBOTS_DISALLOWED_PATH}\n`);
          return;
        }
        const page = byPath.get(path);
        if (!page) {
          response.writeHead(404, { 'content-type': 'text/html; charset=utf-8' }).end('<html><body><h1>Not found</h1></body></html>');
          return;
        }
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page.html);
      });
      servers.push(server);
      const origin = await listenOnLoopback(server);
      sites.push({ name, origin, pages: site.pages, goldByUrl: new Map(site.pages.map((page) => [`${origin}${page.path}`, page.gold])) });
    }
  } catch (error) {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    throw error;
  }
  return {
    sites,
    close: async () => {
      await Promise.all(servers.map(closeServer));
    },
  };
}

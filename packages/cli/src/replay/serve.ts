import { createServer } from 'node:http';
import type { ServedPage, SiteLayout } from '@winnow/eval/replay';
import { listenOnLoopback } from '@winnow/demo-corpus';

/** A replayed site on 127.0.0.1: its origin, a lookup of its pages by path, the requests it answered. */
export interface ServedSite {
  origin: string;
  lookup(pathAndQuery: string): ServedPage | undefined;
  requests: { pages: number; missing: number };
  close(): Promise<void>;
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * Serves one site on a free port of 127.0.0.1: each page at its path and query as UTF-8 with the
 * charset in `Content-Type`, the seed page linking to every page, 404 for anything else. Lookups
 * also accept the crawler's spelling of a URL (`crawlerKey`: tracking parameters dropped).
 */
export async function serveSite(layout: SiteLayout, crawlerKey: (pathAndQuery: string) => string): Promise<ServedSite> {
  const exact = new Map(layout.served.map((entry) => [entry.path, entry]));
  const normalized = new Map(layout.served.map((entry) => [crawlerKey(entry.path), entry]));
  const lookup = (pathAndQuery: string) => exact.get(pathAndQuery) ?? normalized.get(crawlerKey(pathAndQuery));
  // Absolute links: a path that starts with `//` (a canonical such as `http://host//world/…`) would
  // otherwise be a protocol-relative link to another host.
  const seedHtml = (base: string) =>
    Buffer.from(
      `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${escapeHtml(layout.site)}: every page</title></head><body><h1>${escapeHtml(layout.site)}</h1><ul>\n${layout.served
        .map((entry) => `<li><a href="${escapeHtml(base + entry.path)}">${escapeHtml(entry.page.id)}</a></li>`)
        .join('\n')}\n</ul></body></html>`,
      'utf8',
    );
  const requests = { pages: 0, missing: 0 };
  let origin = '';
  const server = createServer((request, response) => {
    // Not `new URL(request.url, base)`: a path that starts with `//` would be read as a host.
    const url = new URL(`http://replay.invalid${request.url ?? '/'}`);
    const pathAndQuery = url.pathname + url.search;
    const send = (status: number, body: Buffer) => {
      response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length });
      response.end(request.method === 'HEAD' ? undefined : body);
    };
    if (pathAndQuery === layout.seed) return send(200, seedHtml(origin));
    const entry = lookup(pathAndQuery);
    if (entry) {
      requests.pages++;
      return send(200, entry.body);
    }
    requests.missing++;
    send(404, Buffer.from('<!DOCTYPE html><title>Not found</title><p>Not found</p>'));
  });
  origin = await listenOnLoopback(server);
  return { origin, lookup, requests, close: () => new Promise<void>((done) => server.close(() => done())) };
}

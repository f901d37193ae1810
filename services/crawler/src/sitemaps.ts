import { gunzipSync } from 'node:zlib';
import { Parser } from 'htmlparser2';

/** What a sitemap lists: pages, or (a sitemap index) further sitemaps. */
export interface SitemapEntries {
  pages: string[];
  sitemaps: string[];
}

/**
 * A gzipped sitemap decompressed, refused past `maxBytes` of output (a decompression bomb) or when
 * corrupt, with a message the crawl log can show (Node's own says "Cannot create a Buffer larger
 * than …" or "incorrect header check").
 */
function gunzipped(body: Buffer, maxBytes: number): Buffer {
  try {
    return gunzipSync(body, { maxOutputLength: maxBytes });
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
      throw new Error(`gzipped sitemap of ${body.length} bytes decompresses to more than ${maxBytes} bytes: refused`);
    throw new Error(`gzipped sitemap is corrupt: ${(error as Error).message}`);
  }
}

/** The sitemaps protocol's own limit on the URLs of one file. */
const MAX_SITEMAP_URLS = 50_000;

/**
 * Reads a sitemap (sitemaps.org: `<urlset><url><loc>` or `<sitemapindex><sitemap><loc>`), plain or
 * gzipped (a `.xml.gz` served as a file, not as a content encoding), decompressing no more than
 * `maxBytes`. Locations are resolved against the sitemap's own URL; anything unreadable is skipped.
 */
export function readSitemap(body: Buffer, sitemapUrl: string, maxBytes: number): SitemapEntries {
  const xml = (isGzip(body) ? gunzipped(body, maxBytes) : body).toString('utf8');
  const entries: SitemapEntries = { pages: [], sitemaps: [] };
  const open: string[] = [];
  let text = '';
  const parser = new Parser(
    {
      onopentagname(name) {
        open.push(localName(name));
        text = '';
      },
      ontext(chunk) {
        text += chunk;
      },
      onclosetag() {
        const name = open.pop();
        const parent = open[open.length - 1];
        if (name === 'loc' && (parent === 'url' || parent === 'sitemap') && entries.pages.length + entries.sitemaps.length < MAX_SITEMAP_URLS) {
          try {
            (parent === 'url' ? entries.pages : entries.sitemaps).push(new URL(text.trim(), sitemapUrl).href);
          } catch {
            // Not a URL: skipped.
          }
        }
        text = '';
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.write(xml);
  parser.end();
  return entries;
}

function localName(name: string): string {
  const colon = name.indexOf(':');
  return (colon >= 0 ? name.slice(colon + 1) : name).toLowerCase();
}

function isGzip(body: Buffer): boolean {
  return body.length > 2 && body[0] === 0x1f && body[1] === 0x8b;
}

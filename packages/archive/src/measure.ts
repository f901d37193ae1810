import { createHash, randomUUID } from 'node:crypto';
import { fetchRecords } from './warc.js';

/** What keeping pages as WARC records costs in the object store, per page. */
export interface WarcBytes {
  pages: number;
  /** The bodies as fetched (decoded), summed. */
  rawBytes: number;
  /** The response, request and metadata records of each page's first fetch, each a gzip member, summed. */
  warcBytes: number;
  /** The revisit, request and metadata records of an unchanged refetch of each page (a 304), summed. */
  revisitBytes: number;
  rawPerPage: number;
  warcPerPage: number;
  revisitPerPage: number;
  /** `warcBytes / rawBytes`. */
  ratio: number;
}

/** Headers as a typical server sends them and as the crawler sends its request, so that records have their usual size. */
const RESPONSE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  date: 'Thu, 26 Nov 2026 10:00:00 GMT',
  server: 'nginx',
  'cache-control': 'max-age=300, public',
  etag: '"5f2c1a7d-3c1e"',
  'last-modified': 'Wed, 25 Nov 2026 09:12:44 GMT',
  vary: 'Accept-Encoding',
  'content-encoding': 'gzip',
};
const REQUEST_HEADERS = {
  'user-agent': 'WinnowBot/0.1 (+https://github.com/winnow-search/winnow#for-site-owners)',
  'accept-encoding': 'gzip, deflate, br',
  accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5',
};

/**
 * The object-store bytes of pages kept as WARC records, computed by writing each page's records
 * as the archiver does (`fetchRecords`: each record its own gzip member) with typical HTTP
 * headers: a first fetch (response, request, metadata) and an unchanged refetch (a 304: revisit,
 * request, metadata). A file's warcinfo record (about 0.3 KB per file of up to
 * `WINNOW_WARC_FILE_BYTES`) is left out. For capacity figures (docs/object-store.md).
 */
export async function measureWarcBytes(pages: Iterable<{ url: string; html: string }>): Promise<WarcBytes> {
  let count = 0;
  let rawBytes = 0;
  let warcBytes = 0;
  let revisitBytes = 0;
  const fetchedAt = new Date('2026-11-26T10:00:00Z');
  for (const page of pages) {
    const body = Buffer.from(page.html);
    const row = {
      id: String(count),
      url: page.url,
      fetchedAt,
      kind: 'stored' as const,
      status: 200,
      responseHeaders: RESPONSE_HEADERS,
      requestHeaders: REQUEST_HEADERS,
      contentHash: createHash('sha256').update(body).digest('hex'),
      metadata: { site: 'example', crawl: '1', depth: '2', 'decoded-content-encoding': 'gzip' },
      recordId: randomUUID(),
    };
    const first = await fetchRecords(row, body, undefined);
    const refetch = await fetchRecords({ ...row, kind: 'not-modified', status: 304, recordId: randomUUID() }, undefined, {
      url: row.url,
      date: fetchedAt,
      recordId: row.recordId,
    });
    count++;
    rawBytes += body.length;
    warcBytes += first.members.reduce((sum, member) => sum + member.length, 0);
    revisitBytes += refetch.members.reduce((sum, member) => sum + member.length, 0);
  }
  const per = (bytes: number) => (count === 0 ? 0 : Math.round(bytes / count));
  return {
    pages: count,
    rawBytes,
    warcBytes,
    revisitBytes,
    rawPerPage: per(rawBytes),
    warcPerPage: per(warcBytes),
    revisitPerPage: per(revisitBytes),
    ratio: rawBytes === 0 ? 0 : warcBytes / rawBytes,
  };
}

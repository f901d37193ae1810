import { STATUS_CODES } from 'node:http';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { WarcRecordRow, WarcRecordType } from '@winnow/storage';
import { WARC_1_1, WARCParser, WARCRecord, WARCSerializer } from 'warcio';

const gzipMember = promisify(gzip);

/** Digests as `sha256:<hex>`: a payload's digest is then the content hash Winnow keys bodies by. */
const DIGEST = { algo: 'sha-256', prefix: 'sha256:', base32: false } as const;
const IDENTICAL_PAYLOAD = 'http://netpreserve.org/warc/1.1/revisit/identical-payload-digest';
const SERVER_NOT_MODIFIED = 'http://netpreserve.org/warc/1.1/revisit/server-not-modified';
/** Headers that described the bytes on the wire: the record holds the decoded body, so they would misdescribe it. */
const WIRE_HEADERS = new Set(['content-encoding', 'transfer-encoding', 'content-length']);

export const WARC_CONTENT_TYPE = 'application/warc';

/** The record a revisit refers to: an earlier capture holding the same payload. */
export interface RefersTo {
  url: string;
  date: Date;
  recordId: string;
}

/**
 * A fetch to write: a `warc_records` row, or a page's latest fetch as `pages` keeps it (no request
 * known: `requestHeaders` null, and `rendered` says whether its body is a rendered document).
 */
export type Fetch = WarcRecordRow & { rendered?: boolean };

/** One fetch's records, each its own gzip member; the first holds (or stands for) the payload. */
export interface FetchGroup {
  recordType: WarcRecordType;
  members: Buffer[];
}

/** Serialises a record (digests computed) as one gzip member, so that each can be read alone by offset. */
async function member(record: WARCRecord): Promise<Buffer> {
  return gzipMember(await WARCSerializer.serialize(record, { gzip: false, digest: DIGEST }));
}

const urn = (uuid: string) => `<urn:uuid:${uuid}>`;

/**
 * The HTTP headers of a response record that holds the decoded body: the fetched headers, but
 * those that described the bytes on the wire (content and transfer codings, their length), with
 * the body's own length. The coding undone is kept in the fetch's metadata record.
 */
function storedHeaders(headers: Record<string, string>, bodyLength: number | undefined): [string, string][] {
  const kept = Object.entries(headers).filter(([name]) => !WIRE_HEADERS.has(name));
  return bodyLength === undefined ? kept : [...kept, ['content-length', String(bodyLength)]];
}

const statusLine = (status: number) => `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`.trimEnd();

/**
 * A fetch's WARC records (WARC/1.1), in the order Heritrix writes them: the payload's record, then
 * the request and a metadata record, both `WARC-Concurrent-To` it.
 *
 * - A stored body no earlier record holds: a `response` record (the HTTP status line and headers,
 *   then the decoded body), or for a page rendered in Chromium — whose body is the rendered
 *   document, not what a server sent — a `resource` record of it.
 * - The same payload as an earlier record (`refersTo`: an unchanged refetch, or an identical body
 *   at another URL): a `revisit` record, profile identical-payload-digest; a 304, profile
 *   server-not-modified. Its `WARC-Payload-Digest` is the body's SHA-256 either way.
 *
 * The request record is the HTTP request the crawler sent (none for a rendered page); the metadata
 * record holds `row.metadata` as warc-fields (site, crawl, depth, the content coding undone).
 * Without `refersTo` a body is needed; without either, the revisit names its payload by digest alone.
 */
export async function fetchRecords(row: Fetch, body: Buffer | undefined, refersTo: RefersTo | undefined): Promise<FetchGroup> {
  const rendered = row.rendered ?? row.requestHeaders === null;
  const date = row.fetchedAt.toISOString();
  const id = urn(row.recordId);
  const common = { url: row.url, date, warcVersion: WARC_1_1 } as const;
  let recordType: WarcRecordType;
  let payloadRecord: WARCRecord;
  if (row.kind !== 'not-modified' && !refersTo && body) {
    if (rendered) {
      recordType = 'resource';
      const contentType = row.responseHeaders['content-type'] ?? 'text/html; charset=utf-8';
      payloadRecord = WARCRecord.create({ ...common, type: 'resource', warcHeaders: { 'WARC-Record-ID': id, 'Content-Type': contentType } }, [body]);
    } else {
      recordType = 'response';
      payloadRecord = WARCRecord.create(
        {
          ...common,
          type: 'response',
          warcHeaders: { 'WARC-Record-ID': id },
          statusline: statusLine(row.status),
          httpHeaders: storedHeaders(row.responseHeaders, body.length),
        },
        [body],
      );
    }
  } else {
    recordType = 'revisit';
    payloadRecord = WARCRecord.create({
      ...common,
      type: 'revisit',
      warcHeaders: { 'WARC-Record-ID': id, 'WARC-Payload-Digest': `sha256:${row.contentHash}` },
      statusline: statusLine(row.status),
      httpHeaders: storedHeaders(row.responseHeaders, undefined),
      ...(refersTo ? { refersToUrl: refersTo.url, refersToDate: refersTo.date.toISOString() } : {}),
    });
    if (refersTo) payloadRecord.warcHeaders.headers.set('WARC-Refers-To', urn(refersTo.recordId));
    if (row.kind === 'not-modified') payloadRecord.warcHeaders.headers.set('WARC-Profile', SERVER_NOT_MODIFIED);
    else payloadRecord.warcHeaders.headers.set('WARC-Profile', IDENTICAL_PAYLOAD);
  }
  const members = [await member(payloadRecord)];
  if (row.requestHeaders) {
    const target = new URL(row.url);
    const request = WARCRecord.create({
      ...common,
      type: 'request',
      warcHeaders: { 'WARC-Concurrent-To': id },
      statusline: `GET ${target.pathname}${target.search} HTTP/1.1`,
      httpHeaders: [['host', target.host], ...Object.entries(row.requestHeaders)],
    });
    members.push(await member(request));
  }
  const fields = Object.entries(row.metadata);
  if (fields.length > 0) {
    const text = fields.map(([name, value]) => `${name}: ${value}\r\n`).join('');
    members.push(
      await member(
        WARCRecord.create({ ...common, type: 'metadata', warcHeaders: { 'WARC-Concurrent-To': id, 'Content-Type': 'application/warc-fields' } }, [
          Buffer.from(text),
        ]),
      ),
    );
  }
  return { recordType, members };
}

/** The `warcinfo` record a WARC file starts with: what wrote it and how. */
export function warcinfoRecord(fields: Record<string, string>): Promise<Buffer> {
  const record = WARCRecord.createWARCInfo(
    { warcVersion: WARC_1_1, date: new Date().toISOString() },
    {
      software: 'Winnow',
      format: 'WARC File Format 1.1',
      conformsTo: 'https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/',
      ...fields,
    },
  );
  return member(record);
}

/**
 * The body a record holds: a `response` record's HTTP payload or a `resource` record's block,
 * read with warcio's parser from the record's gzip member (or its plain bytes).
 */
export async function recordPayload(bytes: Uint8Array): Promise<Buffer> {
  const record = await WARCParser.parse([bytes]);
  if (!record) throw new Error('no WARC record in these bytes');
  if (record.warcType !== 'response' && record.warcType !== 'resource') throw new Error(`a ${record.warcType} record holds no payload`);
  return Buffer.from(await record.readFully(false));
}

import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { WARCParser } from 'warcio';
import { measureWarcBytes } from './measure.js';
import { checkWarc } from './testing/checkWarc.js';
import { type Fetch, fetchRecords, recordPayload, warcinfoRecord } from './warc.js';

const body = Buffer.from('<html><body><p>Grüße aus dem Hafen.</p></body></html>');
const fetch = (overrides: Partial<Fetch> = {}): Fetch => ({
  id: '1',
  url: 'http://127.0.0.1:8080/news/1.html?page=2',
  fetchedAt: new Date('2026-11-26T10:00:00.123Z'),
  kind: 'stored',
  status: 200,
  responseHeaders: { 'content-type': 'text/html; charset=utf-8', 'content-encoding': 'br', 'content-length': '31', 'transfer-encoding': 'chunked' },
  requestHeaders: { 'user-agent': 'WinnowTest/1', 'accept-encoding': 'gzip, deflate, br' },
  contentHash: createHash('sha256').update(body).digest('hex'),
  metadata: { site: 'news', 'decoded-content-encoding': 'br' },
  recordId: randomUUID(),
  ...overrides,
});

test('a stored fetch is a response record holding the decoded body, then its request and metadata records, each a gzip member with valid digests', async () => {
  const row = fetch();
  const group = await fetchRecords(row, body, undefined);
  assert.equal(group.recordType, 'response');
  assert.equal(group.members.length, 3);
  for (const member of group.members) assert.deepEqual([...member.subarray(0, 2)], [0x1f, 0x8b], 'a gzip member');
  const records = await checkWarc([Buffer.concat([await warcinfoRecord({}), ...group.members])]);
  assert.deepEqual(
    records.map((record) => record.type),
    ['warcinfo', 'response', 'request', 'metadata'],
  );
  assert.equal(records[1]?.recordId, `<urn:uuid:${row.recordId}>`);
  assert.equal(records[1]?.payloadDigest, `sha256:${row.contentHash}`, "the payload's digest is its content hash");
  assert.deepEqual(await recordPayload(group.members[0] as Buffer), body, 'the body read back from its record alone');

  const response = await WARCParser.parse([group.members[0] as Buffer]);
  assert.equal(response?.warcDate, '2026-11-26T10:00:00.123Z');
  assert.equal(response?.httpHeaders?.statusCode, 200);
  assert.equal(response?.httpHeaders?.headers.get('content-encoding'), null, 'the codings undone are not claimed');
  assert.equal(response?.httpHeaders?.headers.get('transfer-encoding'), null);
  assert.equal(response?.httpHeaders?.headers.get('content-length'), String(body.length));
  const request = await WARCParser.parse([group.members[1] as Buffer]);
  assert.equal(request?.httpHeaders?.statusline, 'GET /news/1.html?page=2 HTTP/1.1');
  assert.equal(request?.httpHeaders?.headers.get('host'), '127.0.0.1:8080');
  assert.equal(request?.warcHeader('WARC-Concurrent-To'), `<urn:uuid:${row.recordId}>`);
});

test('an identical payload is a revisit referring to the earlier record; a 304 is a server-not-modified revisit; a rendered page is a resource record', async () => {
  const earlier = { url: 'http://127.0.0.1:8080/news/0.html', date: new Date('2026-11-25T08:00:00Z'), recordId: randomUUID() };
  const same = await WARCParser.parse([(await fetchRecords(fetch({ kind: 'unchanged' }), undefined, earlier)).members[0] as Buffer]);
  assert.equal(same?.warcType, 'revisit');
  assert.equal(same?.warcHeader('WARC-Profile'), 'http://netpreserve.org/warc/1.1/revisit/identical-payload-digest');
  assert.equal(same?.warcRefersToTargetURI, earlier.url);
  assert.equal(same?.warcHeader('WARC-Refers-To'), `<urn:uuid:${earlier.recordId}>`);
  const stored = await fetchRecords(fetch(), body, earlier);
  assert.equal(stored.recordType, 'revisit', 'a body another record holds is stored once');

  const notModified = await WARCParser.parse([(await fetchRecords(fetch({ kind: 'not-modified', status: 304 }), body, earlier)).members[0] as Buffer]);
  assert.equal(notModified?.warcHeader('WARC-Profile'), 'http://netpreserve.org/warc/1.1/revisit/server-not-modified');
  assert.equal(notModified?.httpHeaders?.statusCode, 304);

  const rendered = await fetchRecords(fetch({ requestHeaders: null }), body, undefined);
  assert.equal(rendered.recordType, 'resource');
  assert.equal(rendered.members.length, 2, 'no request of ours to record');
  assert.deepEqual(await recordPayload(rendered.members[0] as Buffer), body);
});

test('WARC bytes per page: a first fetch costs a fraction of its body, an unchanged refetch a small fixed amount', async () => {
  const html = `<html><body>${Array.from({ length: 300 }, (_, i) => `<p>Paragraph ${i} of a long article about the harbour.</p>`).join('')}</body></html>`;
  const measured = await measureWarcBytes([
    { url: 'http://example.com/a', html },
    { url: 'http://example.com/b', html: html.replace('harbour', 'lighthouse') },
  ]);
  assert.equal(measured.pages, 2);
  assert.equal(measured.rawBytes, 2 * Buffer.byteLength(html) + 'lighthouse'.length - 'harbour'.length);
  assert.ok(measured.ratio < 0.2, `compressed records are far smaller than the bodies (${measured.ratio})`);
  assert.ok(measured.revisitPerPage < measured.warcPerPage);
  assert.ok(measured.revisitPerPage < 2000, `a revisit group is about a kilobyte (${measured.revisitPerPage})`);
});

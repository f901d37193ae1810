import { createHash } from 'node:crypto';
import { WARCParser } from 'warcio';

/** One record of a WARC file as `checkWarc` read it. */
export interface CheckedRecord {
  type: string;
  targetUri: string | null;
  recordId: string;
  /** The file offset of the record (its gzip member), as warcio's parser counts it. */
  offset: number;
  payloadDigest: string | null;
  profile: string | null;
  refersTo: string | null;
}

const sha256 = (bytes: Uint8Array) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

/** What an HTTP block's payload is: the bytes after its header block. */
function httpPayload(block: Buffer): Buffer {
  const end = block.indexOf('\r\n\r\n');
  if (end < 0) throw new Error('an HTTP block without the blank line that ends its headers');
  return block.subarray(end + 4);
}

/**
 * Reads a WARC file with warcio's own parser and checks every record's digests: the
 * `WARC-Block-Digest` of each record's block, the `WARC-Payload-Digest` of its payload (the HTTP
 * body of a response or request, the whole block of a resource or metadata record), and for a
 * revisit, that its payload digest is that of a record it refers to when that record is in the file
 * (else its digest must name a payload the caller knows, checked by the caller). Throws at the first
 * mismatch; returns the records in order.
 */
export async function checkWarc(source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): Promise<CheckedRecord[]> {
  const parser = new WARCParser(source, { parseHttp: false });
  const records: CheckedRecord[] = [];
  const payloadsById = new Map<string, string>();
  for await (const record of parser) {
    const block = Buffer.from(await record.readFully(false));
    const type = record.warcType;
    const recordId = record.warcHeader('WARC-Record-ID') ?? '';
    const where = `${type} record ${recordId} of ${record.warcTargetURI ?? '(no URI)'}`;
    if (block.length !== record.warcContentLength) throw new Error(`${where}: Content-Length ${record.warcContentLength}, block ${block.length} bytes`);
    const blockDigest = record.warcBlockDigest;
    if (blockDigest && blockDigest !== sha256(block)) throw new Error(`${where}: WARC-Block-Digest ${blockDigest} is not the block's ${sha256(block)}`);
    if (type !== 'warcinfo' && !blockDigest) throw new Error(`${where}: no WARC-Block-Digest`);
    const payloadDigest = record.warcPayloadDigest ?? null;
    if (type === 'revisit') {
      if (!payloadDigest) throw new Error(`${where}: a revisit without WARC-Payload-Digest`);
      const refersTo = record.warcHeader('WARC-Refers-To') ?? null;
      const original = refersTo && payloadsById.get(refersTo);
      if (original && original !== payloadDigest) throw new Error(`${where}: payload digest ${payloadDigest}, but the record it refers to holds ${original}`);
    } else if (payloadDigest) {
      const payload = type === 'response' || type === 'request' ? httpPayload(block) : block;
      if (payloadDigest !== sha256(payload)) throw new Error(`${where}: WARC-Payload-Digest ${payloadDigest} is not the payload's ${sha256(payload)}`);
      payloadsById.set(recordId, payloadDigest);
    }
    records.push({
      type,
      targetUri: record.warcTargetURI ?? null,
      recordId,
      offset: parser.offset,
      payloadDigest,
      profile: record.warcHeader('WARC-Profile') ?? null,
      refersTo: record.warcHeader('WARC-Refers-To') ?? null,
    });
  }
  return records;
}

/**
 * The HTML signatures of the WHATWG MIME Sniffing Standard ("rules for identifying an unknown MIME
 * type", §7.1), each matched case-insensitively after leading whitespace and followed by a
 * tag-terminating byte (a space or `>`).
 */
const HTML_SIGNATURES = [
  '<!DOCTYPE HTML',
  '<HTML',
  '<HEAD',
  '<SCRIPT',
  '<IFRAME',
  '<H1',
  '<DIV',
  '<FONT',
  '<TABLE',
  '<A',
  '<STYLE',
  '<TITLE',
  '<B',
  '<BODY',
  '<BR',
  '<P',
  '<!--',
].map((signature) => Buffer.from(signature, 'latin1'));

/** Whitespace the standard skips before a signature: tab, LF, FF, CR, space. */
const WHITESPACE: ReadonlySet<number> = new Set([0x09, 0x0a, 0x0c, 0x0d, 0x20]);
/** The standard sniffs at most this many bytes of a resource's header. */
const SNIFF_BYTES = 1445;

/**
 * True when a body that came without a `Content-Type` is HTML by the standard's signatures, as a
 * browser would sniff it. Only for an absent header: a declared type is never second-guessed.
 */
export function sniffsAsHtml(body: Uint8Array): boolean {
  const end = Math.min(body.length, SNIFF_BYTES);
  let start = 0;
  while (start < end && WHITESPACE.has(body[start] as number)) start++;
  return HTML_SIGNATURES.some((signature) => {
    const after = start + signature.length;
    if (after >= end) return false;
    for (let i = 0; i < signature.length; i++) {
      const byte = body[start + i] as number;
      // The signatures' letters are upper case; a lower-case byte matches once 0x20 is cleared.
      const expected = signature[i] as number;
      if ((expected >= 0x41 && expected <= 0x5a ? byte & 0xdf : byte) !== expected) return false;
    }
    const terminator = body[after];
    return terminator === 0x20 || terminator === 0x3e;
  });
}

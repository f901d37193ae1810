import sniffHtmlEncoding from 'html-encoding-sniffer';
import { ExtractionError } from './errors.js';
import { nulsReplaced, refuseBinary } from './input.js';

export interface DecodedHtml {
  html: string;
  /** The WHATWG encoding name used, e.g. `UTF-8` or `windows-1251`. */
  encoding: string;
  warnings: string[];
}

/**
 * Turns fetched bytes into the HTML string the extractor reads, the way a browser would: a BOM,
 * then the transport's `Content-Type` charset, then a `<meta charset>` in the first 1024 bytes
 * (WHATWG prescan, via html-encoding-sniffer), else UTF-8 — or windows-1252 when the bytes are not
 * valid UTF-8, as browsers do for a legacy page that declares nothing (a warning says so). Bytes
 * invalid in a declared encoding become U+FFFD and a warning says so, and so do NULs (`nulsReplaced`: Postgres cannot store them); a
 * body that is binary data (`refuseBinary`, the one rule the crawler, templater and extractor share)
 * is refused with a typed error.
 */
export function decodeHtml(bytes: Uint8Array, contentType?: string): DecodedHtml {
  if (bytes.length === 0) throw new ExtractionError('empty-input', 'the page body is empty');
  const encodingLabel = charsetOf(contentType);
  const transport = encodingLabel ? { transportLayerEncodingLabel: encodingLabel } : {};
  let encoding = sniffHtmlEncoding(bytes, { ...transport, defaultEncoding: 'UTF-8' });
  // The sniffer falls back to its default when nothing names an encoding: a second default tells that case apart.
  const declared = encoding !== 'UTF-8' || sniffHtmlEncoding(bytes, { ...transport, defaultEncoding: 'windows-1252' }) === 'UTF-8';
  const warnings: string[] = [];
  let html: string;
  try {
    html = decode(bytes, encoding, true);
  } catch {
    if (declared) {
      html = decode(bytes, encoding, false);
      warnings.push(`bytes invalid in ${encoding} were replaced by U+FFFD`);
    } else {
      // Undeclared and not UTF-8: a legacy page (Latin-1 and its kin), read as browsers of most locales read it.
      encoding = 'windows-1252';
      html = decode(bytes, encoding, false);
      warnings.push('no charset was declared and the bytes are not valid UTF-8: decoded as windows-1252');
    }
  }
  refuseBinary(html);
  return { html: nulsReplaced(html, warnings), encoding, warnings };
}

/**
 * WHATWG's windows-1252 for bytes 0x80–0x9F (the rest is Latin-1). Node 20's TextDecoder reads
 * those bytes as Latin-1's C1 controls (nodejs/node#56542): curly quotes, dashes and € are lost.
 */
const WINDOWS_1252_C1 =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

function decode(bytes: Uint8Array, encoding: string, fatal: boolean): string {
  const text = new TextDecoder(encoding, { fatal }).decode(bytes);
  // Idempotent: a TextDecoder that maps the range right leaves only the five bytes that map to themselves.
  return encoding === 'windows-1252' ? text.replace(/[\u0080-\u009f]/g, (c) => WINDOWS_1252_C1[c.charCodeAt(0) - 0x80] as string) : text;
}

function charsetOf(contentType: string | undefined): string | undefined {
  const match = contentType ? /charset\s*=\s*"?([^";\s]+)/i.exec(contentType) : null;
  return match?.[1];
}

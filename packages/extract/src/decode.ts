import sniffHtmlEncoding from 'html-encoding-sniffer';
import { ExtractionError } from './errors.js';
import { looksBinary, nulsReplaced } from './input.js';

export interface DecodedHtml {
  html: string;
  /** The WHATWG encoding name used, e.g. `UTF-8` or `windows-1251`. */
  encoding: string;
  warnings: string[];
}

/**
 * Turns fetched bytes into the HTML string the extractor reads, the way a browser would: a BOM,
 * then the transport's `Content-Type` charset, then a `<meta charset>` in the first 1024 bytes
 * (WHATWG prescan, via html-encoding-sniffer), else UTF-8. Bytes invalid in that encoding become
 * U+FFFD and a warning says so, and so do NULs (`nulsReplaced`: Postgres cannot store them); a
 * body that looks binary (`looksBinary`, the one rule the crawler, templater and extractor share)
 * is refused with a typed error.
 */
export function decodeHtml(bytes: Uint8Array, contentType?: string): DecodedHtml {
  if (bytes.length === 0) throw new ExtractionError('empty-input', 'the page body is empty');
  const encodingLabel = charsetOf(contentType);
  const encoding = sniffHtmlEncoding(bytes, {
    ...(encodingLabel ? { transportLayerEncodingLabel: encodingLabel } : {}),
    defaultEncoding: 'UTF-8',
  });
  const warnings: string[] = [];
  let html: string;
  try {
    html = new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch {
    html = new TextDecoder(encoding).decode(bytes);
    warnings.push(`bytes invalid in ${encoding} were replaced by U+FFFD`);
  }
  // UTF-16 text is half NUL bytes: it is judged by its characters.
  if (looksBinary(encoding.startsWith('UTF-16') ? html : bytes)) {
    throw new ExtractionError('binary-input', 'the page body is binary data, not an HTML document');
  }
  return { html: nulsReplaced(html, warnings), encoding, warnings };
}

function charsetOf(contentType: string | undefined): string | undefined {
  const match = contentType ? /charset\s*=\s*"?([^";\s]+)/i.exec(contentType) : null;
  return match?.[1];
}

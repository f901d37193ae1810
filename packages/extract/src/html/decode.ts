import sniffHtmlEncoding from 'html-encoding-sniffer';
import { Parser } from 'htmlparser2';
import { ExtractionError } from '../result/errors.js';
import { nulsReplaced, refuseBinary } from './input.js';
import { WINDOWS_1252_C1 } from './windows1252.js';

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
 * valid UTF-8, as browsers do for a legacy page that declares nothing, or ISO-2022-JP when seven-bit
 * bytes escape into it (`ISO_2022_JP_ESCAPE`; a warning says which). Unlike a browser, it reads as
 * UTF-8 bytes that are UTF-8 whatever single-byte encoding they are declared in
 * (`decodeAsDeclared`), where a browser would garble the page. A page
 * that declares nothing by then but has a `<meta charset>` further on is decoded again with that
 * encoding, as browsers do (`lateMetaEncoding`; a warning says so). Bytes invalid in a declared
 * encoding become U+FFFD and a warning says so, and so do NULs (`nulsReplaced`: Postgres cannot
 * store them); a body that is binary data (`refuseBinary`, the one rule the crawler, templater and
 * extractor share) is refused with a typed error.
 */
export function decodeHtml(bytes: Uint8Array, contentType?: string): DecodedHtml {
  if (bytes.length === 0) throw new ExtractionError('empty-input', 'the page body is empty');
  const encodingLabel = charsetOf(contentType);
  const transport = encodingLabel ? { transportLayerEncodingLabel: encodingLabel } : {};
  // The sniffer falls back to its default when nothing names an encoding: an empty one tells that case apart.
  const sniffed = sniffHtmlEncoding(bytes, { ...transport, defaultEncoding: '' });
  // A WHATWG encoding Node cannot decode (ISO-8859-16, x-user-defined) counts as none, not as a crash.
  const declared = sniffed === '' || isDecodable(sniffed) ? sniffed : '';
  let decoded = declared === '' ? decodeUndeclared(bytes) : decodeAsDeclared(bytes, declared);
  if (declared !== sniffed) decoded.warnings.push(`the declared encoding ${sniffed} cannot be decoded here: read as if none was declared`);
  const late = sniffed === '' ? lateMetaEncoding(bytes) : undefined;
  // Read as UTF-8, the bytes are UTF-8: a late single-byte declaration gives way as an early one does.
  if (late !== undefined && late !== decoded.encoding && !(decoded.encoding === 'UTF-8' && SINGLE_BYTE.test(late))) {
    decoded = decodeDeclared(bytes, late);
    decoded.warnings.unshift(`a <meta> past the first 1024 bytes declares ${late}: decoded as ${late}, as browsers decode such a page again`);
  }
  refuseBinary(decoded.html);
  return { ...decoded, html: nulsReplaced(decoded.html, decoded.warnings) };
}

/** The WHATWG single-byte encodings: Latin-1's kin, Cyrillic, Greek, Thai…, a byte a character. */
const SINGLE_BYTE = /^(windows-12\d\d|windows-874|ISO-8859-\d+|KOI8-[RU]|IBM866|macintosh|x-mac-cyrillic)$/i;

/**
 * A page in its declared encoding, unless it declares a single-byte one and its bytes are UTF-8
 * with characters past ASCII: then UTF-8, and a warning says so. A server that labels every
 * page ISO-8859-1 while the page and its `<meta>` say UTF-8 is common, and browsers show such a
 * page garbled ("siÄ™" for "się"), which indexed would make its phrases unfindable. Text
 * really written in a single-byte encoding all but never forms valid UTF-8 sequences: an accented
 * letter is one byte there, which UTF-8 never leaves alone.
 */
function decodeAsDeclared(bytes: Uint8Array, declared: string): DecodedHtml {
  if (SINGLE_BYTE.test(declared) && bytes.some((byte) => byte >= 0x80)) {
    try {
      const warning = `declared ${declared}, but the bytes are UTF-8: decoded as UTF-8`;
      return { html: decode(bytes, 'UTF-8', true), encoding: 'UTF-8', warnings: [warning] };
    } catch {
      // Not UTF-8: the declaration holds.
    }
  }
  return decodeDeclared(bytes, declared);
}

function decodeDeclared(bytes: Uint8Array, encoding: string): DecodedHtml {
  try {
    return { html: decode(bytes, encoding, true), encoding, warnings: [] };
  } catch {
    return { html: decode(bytes, encoding, false), encoding, warnings: [`bytes invalid in ${encoding} were replaced by U+FFFD`] };
  }
}

/**
 * ISO-2022-JP's escape into JIS X 0208 (`ESC $ B`, `ESC $ @`): seven-bit bytes, so valid UTF-8 too,
 * but never in a page of any other encoding. Browsers detect it in an undeclared page (Firefox's
 * chardetng, Chrome's CED); read as UTF-8 it would index escape codes and ASCII pairs.
 */
const ISO_2022_JP_ESCAPE = /\x1b\$[B@]/;

function decodeUndeclared(bytes: Uint8Array): DecodedHtml {
  if (bytes.includes(0x1b) && bytes.every((byte) => byte < 0x80) && ISO_2022_JP_ESCAPE.test(Buffer.from(bytes).toString('latin1'))) {
    const decoded = decodeDeclared(bytes, 'ISO-2022-JP');
    decoded.warnings.unshift('no charset was declared and the bytes escape into ISO-2022-JP: decoded as ISO-2022-JP');
    return decoded;
  }
  try {
    return { html: decode(bytes, 'UTF-8', true), encoding: 'UTF-8', warnings: [] };
  } catch {
    // Not UTF-8: a legacy page (Latin-1 and its kin), read as browsers of most locales read it.
    const warning = 'no charset was declared and the bytes are not valid UTF-8: decoded as windows-1252';
    return { html: decode(bytes, 'windows-1252', false), encoding: 'windows-1252', warnings: [warning] };
  }
}

/** How far into a page `lateMetaEncoding` looks: a `<head>` longer than this is not one browsers meet in practice. */
const LATE_META_BYTES = 64 * 1024;

/**
 * The encoding the first `<meta charset>` or `<meta http-equiv="Content-Type">` before `<body>`
 * (and within 64 KB) names, for a page that declares none in its first 1024 bytes. The prescan
 * stops there, but the HTML tree builder "changes the encoding" when it meets such a meta while
 * the encoding is still tentative (HTML Standard, "Changing the encoding while parsing"), and
 * browsers decode the page again. The bytes are read as Latin-1, one character a byte, as the
 * prescan reads them, so htmlparser2 skips comments and scripts as a tokenizer does; each meta's
 * own bytes then go through the sniffer's prescan, so that labels, the `content` attribute's
 * charset and UTF-16 read as UTF-8 follow WHATWG. A label no decoder here knows is passed over,
 * as the tree builder passes it over.
 */
function lateMetaEncoding(bytes: Uint8Array): string | undefined {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, LATE_META_BYTES)).toString('latin1');
  // Every such declaration says `charset`: most undeclared pages have none to parse for.
  if (!/charset/i.test(head)) return undefined;
  let found: string | undefined;
  const parser: Parser = new Parser({
    onopentag(name) {
      if (name === 'body') {
        parser.pause();
      } else if (name === 'meta') {
        const encoding = sniffHtmlEncoding(bytes.subarray(parser.startIndex, parser.endIndex + 1), { defaultEncoding: '' });
        if (encoding !== '' && isDecodable(encoding)) {
          found = encoding;
          parser.pause();
        }
      }
    },
  });
  parser.write(head);
  return found;
}

/** Whether this Node's TextDecoder knows a WHATWG encoding (it lacks ISO-8859-16 and x-user-defined). */
function isDecodable(encoding: string): boolean {
  try {
    new TextDecoder(encoding);
    return true;
  } catch {
    return false;
  }
}

function decode(bytes: Uint8Array, encoding: string, fatal: boolean): string {
  const text = new TextDecoder(encoding, { fatal }).decode(bytes);
  // Idempotent: a TextDecoder that maps the range right leaves only the five bytes that map to themselves.
  return encoding === 'windows-1252' ? text.replace(/[\u0080-\u009f]/g, (c) => WINDOWS_1252_C1[c.charCodeAt(0) - 0x80] as string) : text;
}

function charsetOf(contentType: string | undefined): string | undefined {
  const match = contentType ? /charset\s*=\s*"?([^";\s]+)/i.exec(contentType) : null;
  return match?.[1];
}

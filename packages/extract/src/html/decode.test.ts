import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { decodeHtml } from './decode.js';
import { ExtractionError } from '../result/errors.js';
import { extractReader } from '../reader/reader.js';

describe('decodeHtml', () => {
  it('follows a charset given only in a <meta>', () => {
    const bytes = Buffer.concat([
      Buffer.from('<html><head><meta charset="windows-1251"></head><body><p>'),
      Buffer.from([0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2]),
      Buffer.from('</p></body></html>'),
    ]);
    const decoded = decodeHtml(bytes);
    assert.equal(decoded.encoding, 'windows-1251');
    assert.match(decoded.html, /Привет/);
    assert.deepEqual(decoded.warnings, []);
  });

  /** A `<head>` whose first 2 KB declare nothing: a long stylesheet before the meta, as real pages have. */
  const longHead = (meta: string) =>
    Buffer.from(`<html><head><title>Page</title><style>${'.rule { margin: 0 auto; padding: 1em; }\n'.repeat(50)}</style>${meta}</head><body><p>`);

  it('follows a <meta> charset past the first 1024 bytes, as browsers decode such a page again, and says so', () => {
    const japanese = Buffer.concat([
      longHead('<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS">'),
      Buffer.from([0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea]),
      Buffer.from('</p></body></html>'),
    ]);
    const decoded = decodeHtml(japanese, 'text/html');
    assert.equal(decoded.encoding, 'Shift_JIS');
    assert.match(decoded.html, /<p>日本語<\/p>/);
    assert.deepEqual(decoded.warnings, ['a <meta> past the first 1024 bytes declares Shift_JIS: decoded as Shift_JIS, as browsers decode such a page again']);
    const russian = decodeHtml(Buffer.concat([longHead('<meta charset="cp1251">'), Buffer.from([0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2])]));
    assert.equal(russian.encoding, 'windows-1251', 'cp1251 is a WHATWG label of windows-1251');
    assert.match(russian.html, /<p>Привет$/);
    assert.equal(decodeHtml(japanese, 'text/html; charset=utf-8').encoding, 'UTF-8', 'a declared encoding stays: the late meta only replaces a guess');
  });

  it('leaves a page as it was when its late <meta> names no encoding a decoder knows, or sits where no browser reads it', () => {
    const latin1 = Buffer.from('<p>Besan\u00e7on</p>', 'latin1');
    const undeclared = decodeHtml(Buffer.concat([longHead(''), latin1]));
    for (const meta of [
      '<meta charset="x-klingon">',
      '<meta charset="iso-8859-16">', // a WHATWG encoding Node's TextDecoder lacks
      '<!-- <meta charset="windows-1251"> -->',
      '<script>document.write(\'<meta charset="windows-1251">\')</script>',
    ]) {
      const decoded = decodeHtml(Buffer.concat([longHead(meta), latin1]));
      assert.equal(decoded.encoding, 'windows-1252', meta);
      assert.match(decoded.html, /Besançon/, meta);
      assert.deepEqual(decoded.warnings, undeclared.warnings, meta);
    }
    const inBody = decodeHtml(Buffer.concat([longHead(''), Buffer.from('<meta charset="windows-1251">'), latin1]));
    assert.equal(inBody.encoding, 'windows-1252', "a meta in <body> is not the head's");
  });

  it('prefers the Content-Type charset to the <meta> one', () => {
    const decoded = decodeHtml(Buffer.from('<meta charset="windows-1251"><p>caf\u00e9</p>', 'utf8'), 'text/html; charset=utf-8');
    assert.equal(decoded.encoding, 'UTF-8');
    assert.match(decoded.html, /café/);
  });

  it('reads UTF-8 bytes declared in a single-byte encoding as UTF-8, where a browser garbles them, and says so', () => {
    const polish = Buffer.from('<html><head><meta charset="utf-8"></head><body><p>Jak się ją leczy? Zażółć gęślą jaźń.</p></body></html>', 'utf8');
    for (const contentType of ['text/html; charset=ISO-8859-1', 'text/html; charset=windows-1250', 'text/html; charset=koi8-r']) {
      const decoded = decodeHtml(polish, contentType);
      assert.equal(decoded.encoding, 'UTF-8', contentType);
      assert.match(decoded.html, /Jak się ją leczy\? Zażółć gęślą jaźń\./, contentType);
      assert.match(decoded.warnings.join(' '), /^declared [\w-]+, but the bytes are UTF-8: decoded as UTF-8$/, contentType);
    }
    const byMeta = decodeHtml(Buffer.from('<meta charset="windows-1252"><p>naïve café</p>', 'utf8'));
    assert.equal(byMeta.encoding, 'UTF-8', 'a <meta> that declares one too');
    const late = decodeHtml(Buffer.concat([longHead('<meta charset="windows-1252">'), Buffer.from('naïve café</p>', 'utf8')]));
    assert.equal(late.encoding, 'UTF-8', 'a late <meta> too');
    assert.match(late.html, /naïve café/);
    // Text really in a single-byte encoding: its accented letters are lone bytes, never UTF-8.
    const latin1 = decodeHtml(Buffer.from('<p>na\u00efve caf\u00e9, Besan\u00e7on</p>', 'latin1'), 'text/html; charset=ISO-8859-1');
    assert.equal(latin1.encoding, 'windows-1252');
    assert.match(latin1.html, /naïve café, Besançon/);
    assert.deepEqual(latin1.warnings, []);
    assert.deepEqual(decodeHtml(Buffer.from('<p>plain ASCII</p>'), 'text/html; charset=ISO-8859-1').encoding, 'windows-1252', 'ASCII keeps its declaration');
    assert.equal(decodeHtml(Buffer.from([0x3c, 0x70, 0x3e, 0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2]), 'text/html; charset=windows-1251').html, '<p>Привет');
  });

  it('replaces bytes invalid in a declared UTF-8 and says so', () => {
    const bytes = Buffer.from([0x3c, 0x70, 0x3e, 0x61, 0xff, 0xfe, 0x62, 0x3c, 0x2f, 0x70, 0x3e]);
    const decoded = decodeHtml(bytes, 'text/html; charset=utf-8');
    assert.equal(decoded.html, '<p>a\ufffd\ufffdb</p>');
    assert.match(decoded.warnings.join(' '), /replaced/);
    const byMeta = decodeHtml(Buffer.concat([Buffer.from('<meta charset="utf-8">'), bytes]));
    assert.equal(byMeta.encoding, 'UTF-8', 'a <meta> declaration is as authoritative');
    assert.match(byMeta.html, /a\ufffd\ufffdb/);
  });

  it('reads a page that declares no charset and is not UTF-8 as windows-1252, as browsers do, and says so', () => {
    const latin1 = Buffer.concat([
      Buffer.from('<html><body><p>Le gar\u00e7on tr\u00e8s sage de Besan\u00e7on ', 'latin1'),
      Buffer.from([0x96, 0x20, 0x80]), // an en dash and a euro sign: windows-1252's, not Latin-1's
      Buffer.from('5</p></body></html>'),
    ]);
    const decoded = decodeHtml(latin1, 'text/html');
    assert.equal(decoded.encoding, 'windows-1252');
    assert.match(decoded.html, /Le garçon très sage de Besançon – €5/);
    assert.match(decoded.warnings.join(' '), /no charset was declared .* decoded as windows-1252/);
    const declared = decodeHtml(latin1, 'text/html; charset=iso-8859-1');
    assert.equal(declared.encoding, 'windows-1252', 'iso-8859-1 is a label of windows-1252');
    assert.match(declared.html, /Besançon – €5/);
    assert.deepEqual(declared.warnings, []);
    assert.equal(decodeHtml(Buffer.from('<p>Besan\u00e7on</p>', 'utf8')).encoding, 'UTF-8', 'valid UTF-8 stays UTF-8');
    assert.deepEqual(decodeHtml(Buffer.from('<p>Besan\u00e7on</p>', 'utf8')).warnings, []);
  });

  it('reads an undeclared page that escapes into ISO-2022-JP as ISO-2022-JP, as browsers detect it, and says so', () => {
    const greeting = Buffer.from('\x1b$B$3$s$K$A$O\x1b(B', 'latin1'); // こんにちは in ISO-2022-JP
    const page = Buffer.concat([Buffer.from('<html><body><p>'), greeting, Buffer.from(' Tokyo</p></body></html>')]);
    const decoded = decodeHtml(page, 'text/html');
    assert.equal(decoded.encoding, 'ISO-2022-JP');
    assert.match(decoded.html, /<p>こんにちは Tokyo<\/p>/);
    assert.match(decoded.warnings.join(' '), /escape into ISO-2022-JP/);
    const eightBit = Buffer.from(`<p>Café \x1b$B ${'and more words of the page '.repeat(10)}</p>`, 'utf8');
    assert.equal(decodeHtml(eightBit).encoding, 'UTF-8', 'bytes of eight bits are no ISO-2022-JP');
  });

  it('reads a page whose declared encoding Node cannot decode as if it declared none, and says so', () => {
    for (const contentType of ['text/html; charset=iso-8859-16', 'text/html; charset=x-user-defined']) {
      const decoded = decodeHtml(Buffer.from('<p>Besan\u00e7on</p>', 'latin1'), contentType);
      assert.equal(decoded.encoding, 'windows-1252', contentType);
      assert.match(decoded.html, /Besançon/, contentType);
      assert.match(decoded.warnings.join(' '), /cannot be decoded here/, contentType);
    }
  });

  it('refuses empty and binary bodies', () => {
    assert.throws(
      () => decodeHtml(new Uint8Array()),
      (error: unknown) => error instanceof ExtractionError && error.code === 'empty-input',
    );
    const png = new Uint8Array(4096).map((_, i) => (i % 3 === 0 ? 0 : i % 251));
    assert.throws(
      () => decodeHtml(png),
      (error: unknown) => error instanceof ExtractionError && error.code === 'binary-input',
    );
  });

  it('replaces NULs by U+FFFD, as the HTML tokenizer does, and says so', () => {
    const text = '<p>Some words of an ordinary paragraph.</p>'.repeat(10);
    const decoded = decodeHtml(Buffer.from(`${text}<p>a\u0000b</p>`));
    assert.equal(decoded.html, `${text}<p>a\ufffdb</p>`);
    assert.match(decoded.warnings.join(' '), /NUL characters were replaced by U\+FFFD/);
  });

  it('refuses random bytes served as HTML, whatever charset they claim, saying why', () => {
    const random = randomBytes(200 * 1024);
    for (const contentType of ['text/html', 'text/html; charset=utf-8', 'text/html; charset=iso-8859-1', 'text/html; charset=shift_jis']) {
      assert.throws(
        () => decodeHtml(random, contentType),
        (error: unknown) =>
          error instanceof ExtractionError && error.code === 'binary-input' && /\d+% of its first characters are control characters/.test(error.message),
        contentType,
      );
    }
  });

  it('reads legitimate pages in many encodings, a few stray controls included', () => {
    const page = (body: Buffer) => Buffer.concat([Buffer.from('<html><body>'), ...Array.from({ length: 400 }, () => body), Buffer.from('</body></html>')]);
    const pages: [string, Buffer, string, RegExp][] = [
      ['utf-8', page(Buffer.from('<p>Zürich, Ελλάδα, Москва, 日本語, 한국어.</p>')), 'text/html; charset=utf-8', /Москва, 日本語/],
      ['windows-1252, undeclared', page(Buffer.from('<p>Besan\u00e7on \u0097 caf\u00e9</p>', 'latin1')), 'text/html', /Besançon — café/],
      [
        'windows-1251',
        page(Buffer.from([0x3c, 0x70, 0x3e, 0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2, 0x3c, 0x2f, 0x70, 0x3e])),
        'text/html; charset=windows-1251',
        /<p>Привет<\/p>/,
      ],
      [
        'shift_jis',
        page(Buffer.from([0x3c, 0x70, 0x3e, 0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea, 0x3c, 0x2f, 0x70, 0x3e])),
        'text/html; charset=shift_jis',
        /<p>日本語<\/p>/,
      ],
      [
        'euc-kr',
        page(Buffer.from([0x3c, 0x70, 0x3e, 0xc7, 0xd1, 0xb1, 0xb9, 0xbe, 0xee, 0x3c, 0x2f, 0x70, 0x3e])),
        'text/html; charset=euc-kr',
        /<p>한국어<\/p>/,
      ],
      ['utf-16le', Buffer.from(`\ufeff<html><body>${'<p>Zürich 日本語</p>'.repeat(400)}</body></html>`, 'utf16le'), 'text/html', /Zürich 日本語/],
      // 1 control in 78 characters (1.3%): a page with a stray few, as real pages have.
      [
        'stray controls',
        page(Buffer.from('<p>(c)\u001d To provide a forum for communication on all aspects of the trade.</p>\n')),
        'text/html',
        /\(c\)\u001d To/,
      ],
    ];
    for (const [name, bytes, contentType, expected] of pages) {
      assert.match(decodeHtml(bytes, contentType).html, expected, name);
    }
  });

  it('drops stray controls from the extracted text: none reaches the index or a highlight', () => {
    const paragraphs = '<p>An ordinary paragraph of a page that carries a stray control or two.</p>'.repeat(20);
    const html = decodeHtml(Buffer.from(`<html><body>${paragraphs}<p>(c)\u001d To provide\u0016 a forum\u0001.</p></body></html>`)).html;
    assert.match(html, /\u001d/, 'the decoded page keeps them, as the HTML tokenizer does');
    assert.match(extractReader(html).text, /\n\(c\) To provide a forum\.$/);
  });

  it('refuses random bytes labelled UTF-16, which decode to few controls, and keeps a page of icon-font glyphs', () => {
    for (const [bom, encoding] of [
      [[0xff, 0xfe], 'utf-16le'],
      [[0xfe, 0xff], 'utf-16be'],
    ] as const) {
      for (const contentType of ['text/html', `text/html; charset=${encoding}`]) {
        assert.throws(
          () => decodeHtml(Buffer.concat([Buffer.from(bom), randomBytes(64 * 1024)]), contentType),
          (error: unknown) =>
            error instanceof ExtractionError &&
            error.code === 'binary-input' &&
            /\d+% of its first characters are unassigned or private-use/.test(error.message),
          `${encoding}, ${contentType}`,
        );
      }
    }
    const icons = '<p><i class="fa">\uf099</i> Follow us, and read the paragraph beside the icon of a bird.</p>'.repeat(100);
    assert.match(decodeHtml(Buffer.from(`\ufeff<html><body>${icons}</body></html>`, 'utf16le')).html, /\uf099/);
  });

  it('judges UTF-16 by its characters, not its NUL bytes', () => {
    assert.match(decodeHtml(Buffer.from('\ufeff<p>text</p>', 'utf16le')).html, /<p>text<\/p>/);
    assert.throws(
      () => decodeHtml(Buffer.from(`\ufeff${'\u0000\u0001'.repeat(500)}`, 'utf16le')),
      (error: unknown) => error instanceof ExtractionError && error.code === 'binary-input',
    );
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildBlockTree } from './blockTree.js';
import { decodeHtml } from './decode.js';
import { ExtractionError } from './errors.js';

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

  it('prefers the Content-Type charset to the <meta> one', () => {
    const decoded = decodeHtml(Buffer.from('<meta charset="windows-1251"><p>caf\u00e9</p>', 'utf8'), 'text/html; charset=utf-8');
    assert.equal(decoded.encoding, 'UTF-8');
    assert.match(decoded.html, /café/);
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

  it('keeps other C0 controls in text: a page with many is text, not binary, by the same rule as the parsers', () => {
    const paragraph = 'An ordinary paragraph \u0001\u0002\u0003 of text. ';
    const html = `<html><body>${`<p>${paragraph}</p>`.repeat(200)}</body></html>`;
    const decoded = decodeHtml(Buffer.from(html));
    assert.equal(decoded.html, html);
    assert.ok(buildBlockTree(decoded.html).blocks.length > 0, 'the parsers read what the decoder accepted');
  });

  it('judges UTF-16 by its characters, not its NUL bytes', () => {
    assert.match(decodeHtml(Buffer.from('\ufeff<p>text</p>', 'utf16le')).html, /<p>text<\/p>/);
    assert.throws(
      () => decodeHtml(Buffer.from(`\ufeff${'\u0000\u0001'.repeat(500)}`, 'utf16le')),
      (error: unknown) => error instanceof ExtractionError && error.code === 'binary-input',
    );
  });
});

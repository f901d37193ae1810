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

  it('replaces invalid UTF-8 and says so', () => {
    const decoded = decodeHtml(Buffer.from([0x3c, 0x70, 0x3e, 0x61, 0xff, 0xfe, 0x62, 0x3c, 0x2f, 0x70, 0x3e]));
    assert.equal(decoded.html, '<p>a\ufffd\ufffdb</p>');
    assert.match(decoded.warnings.join(' '), /replaced/);
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

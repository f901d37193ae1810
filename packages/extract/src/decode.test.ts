import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
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
});

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sniffsAsHtml } from './sniff.js';

describe('sniffing a body that came without a Content-Type', () => {
  test("HTML by the MIME Sniffing Standard's signatures, after whitespace, any case, followed by a space or `>`", () => {
    for (const body of [
      '<!DOCTYPE html><html>',
      ' \t\r\n<HTML lang="fr">',
      '<head>',
      '<body>',
      '<p>Text',
      '<div class="a">',
      '<title>T</title>',
      '<!-- c -->',
      '<br>',
    ]) {
      assert.ok(sniffsAsHtml(Buffer.from(body)), body);
    }
  });

  test('anything else is not', () => {
    for (const body of ['', '   ', '<?xml version="1.0"?><rss>', '<pre>x</pre>', '<html', '<htmlx>', '%PDF-1.4', 'plain text <p>later</p>', '\u00a0<p>']) {
      assert.ok(!sniffsAsHtml(Buffer.from(body)), JSON.stringify(body));
    }
  });
});

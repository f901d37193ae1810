import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { indexOfMarker } from './pageSearch.js';

describe('indexOfMarker', () => {
  it('finds what indexOf finds, from any offset, past partial matches, in one-byte and two-byte pages', () => {
    for (const page of ['<scrip <scripx <script>a</script><SCRIPT>', '“<scrip <scripx <script>a</script><SCRIPT>”', '<![CDATA <![CDATA[x]]> <![CDATA[']) {
      for (const marker of ['<script', '</script', '<SCRIPT', '</SCRIPT', '<![CDATA[', '<!--', 'absent marker']) {
        for (let from = 0; from <= page.length; from++)
          assert.equal(indexOfMarker(page, marker, from), page.indexOf(marker, from), `${marker} from ${from} in ${page}`);
      }
    }
  });
});

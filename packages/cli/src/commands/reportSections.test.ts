import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { replaySection, spliceSection } from './report.js';

describe('report sections', () => {
  it('replace what lies between their markers, and go before the published anchors the first time', () => {
    const first = spliceSection('# Report\n\n## Published anchors\n- x\n', 'replay', 'one');
    assert.match(first, /<!-- section replay: written by winnow report -->\none\n<!-- end of section replay -->\n\n## Published anchors/);
    const second = spliceSection(first, 'replay', 'two');
    assert.doesNotMatch(second, /one/);
    assert.equal(second.split('section replay:').length, 2);
    assert.match(second, /two\n<!-- end of section replay -->\n\n## Published anchors\n- x\n$/);
  });

  it('show the three search rates and the misses by layer per dataset', () => {
    const text = replaySection([
      {
        dataset: 'dragnet',
        method: 'replay',
        templatePages: true,
        replay: {
          pages: 281,
          lcsIndexed: 0.961,
          lcsKfold: 0.963,
          rates: { inside: 0.956, across: 0.81, boilerplate: 0.031 },
          phrases: { inside: 1000, across: 1000, boilerplate: 1000 },
          layers: { 'not extracted': 234, 'search failed': 1 },
        },
      },
    ]);
    assert.match(text, /\| dragnet \| 281 \| 0\.961 \| 0\.963 \| 0\.956 \(1000\) \| 0\.810 \(1000\) \| 0\.031 \(1000\) \| 0 \/ 234 \/ 0 \/ 1 \|/);
  });
});

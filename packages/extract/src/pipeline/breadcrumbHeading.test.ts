import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { breadcrumbTail, withoutBreadcrumbs } from './breadcrumbHeading.js';

describe('breadcrumb headings', () => {
  it('keeps the part of a breadcrumb heading after the site and section names', () => {
    assert.equal(breadcrumbTail('uho優活健康網 〉檢視火線新聞 〉菸害防制新法3年 青少年吸菸仍嚴重？'), '菸害防制新法3年 青少年吸菸仍嚴重？');
    assert.equal(breadcrumbTail('Home › Health › Smoking among teenagers still rising'), 'Smoking among teenagers still rising');
    assert.equal(breadcrumbTail('News > World > Europe > Floods close the Danube to shipping'), 'Floods close the Danube to shipping');
  });

  it('leaves headlines alone: one separator, quotes, long parts', () => {
    assert.equal(breadcrumbTail('Markets › Stocks rally as inflation cools'), undefined);
    assert.equal(breadcrumbTail('«Разве у вас революция?» — «Вот у нас была революция!» » сказал он'), undefined);
    assert.equal(breadcrumbTail('A very long sentence that is no section name at all › another part › the end'), undefined);
    assert.equal(breadcrumbTail('Plain headline with no separators'), undefined);
    assert.equal(breadcrumbTail('Home ›  › Headline'), undefined);
  });

  it('cuts only heading lines', () => {
    const blocks = [
      { path: 'HTML.BODY.DIV.H1', text: 'Site › Section › The headline' },
      { path: 'HTML.BODY.DIV.P', text: 'Step one › step two › step three' },
    ];
    assert.deepEqual(withoutBreadcrumbs(blocks), [{ path: 'HTML.BODY.DIV.H1', text: 'The headline' }, blocks[1]]);
    assert.equal(withoutBreadcrumbs([blocks[1]!]), undefined);
  });
});

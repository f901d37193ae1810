import assert from 'node:assert/strict';
import { test } from 'node:test';
import { preparedExtractor, selfCheckVerdict, templateMethodByName } from '@winnow/extract';

/** A page of a small site's article layout: the site's navigation and footer around an article of its own sentences. */
function article(n: number): string {
  const sentences = Array.from(
    { length: 6 },
    (_, i) => `<p>Story ${n} tells in paragraph ${i} how the harbour of town ${n * 7 + i} met a tide of ${n * 13 + i} feet on a quiet morning.</p>`,
  ).join('');
  return `<!DOCTYPE html><html><head><title>Story ${n}</title></head><body><nav><a href="/">Home</a> <a href="/news">News</a></nav><main><article><h1>Story ${n}</h1>${sentences}</article></main><footer><p>Copyright the harbour gazette, all rights reserved.</p></footer></body></html>`;
}

/** A page of another design altogether: a table of figures, no article. */
const otherDesign = `<!DOCTYPE html><html><head><title>Tides</title></head><body><table>${Array.from({ length: 30 }, (_, i) => `<tr><td>Day ${i}</td><td>${i * 3} ft</td><td><span>High water at ${i % 12} o'clock, said the harbour master on the radio that morning.</span></td></tr>`).join('')}</table></body></html>`;

test("the real pipeline's readings get the verdict that describes them", () => {
  const extract = preparedExtractor(
    templateMethodByName('pipeline'),
    Array.from({ length: 12 }, (_, n) => article(n)),
  );
  const same = extract(article(40));
  assert.deepEqual(selfCheckVerdict(same, true), { verdict: 'agreed', reason: 'none' }, same.warnings.join('; '));
  const other = extract(otherDesign);
  assert.deepEqual(selfCheckVerdict(other, true), { verdict: 'read-alone', reason: 'no-layout' }, other.warnings.join('; '));
  assert.deepEqual(selfCheckVerdict(same, false), { verdict: 'none', reason: 'no-template' }, 'without a template: the fallback');
});

test("each reason the pipeline and fastce+ write for a page read alone has its class, and the reader's empty reading is the template's", () => {
  const pipeline = (warning: string, readAlone = true) => selfCheckVerdict({ method: 'pipeline', readAlone, warnings: ['a note', warning] }, true);
  assert.deepEqual(pipeline('no template for this page type yet: read alone'), { verdict: 'read-alone', reason: 'no-template-yet' });
  assert.deepEqual(pipeline('the page does not fit the template (its main region is not there): read alone'), { verdict: 'read-alone', reason: 'misfit' });
  assert.deepEqual(pipeline("the template confirms 12% of the single-page reading, which holds 40% of the template's: read alone"), {
    verdict: 'read-alone',
    reason: 'disagreed',
  });
  assert.deepEqual(pipeline("the single-page reading is empty: the template's reading is used", false), { verdict: 'template', reason: 'reader-empty' });
  assert.deepEqual(selfCheckVerdict({ method: 'fastce+', warnings: ['the template found no main text on the page: read on its own'] }, true), {
    verdict: 'read-alone',
    reason: 'misfit',
  });
  assert.deepEqual(selfCheckVerdict({ method: 'fastce', warnings: [] }, true), { verdict: 'template', reason: 'none' });
});

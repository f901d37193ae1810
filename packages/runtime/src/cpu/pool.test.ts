import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { CpuPool } from './pool.js';

/** Pages of one small site: a fixed header and footer around a story of its own. */
function samplePages(count: number, offset = 0): string[] {
  return Array.from({ length: count }, (_, i) => {
    const n = i + offset;
    const story = Array.from({ length: 40 }, (_, k) => `word${(n * 31 + k * 7) % 997}`).join(' ');
    return `<html><body><div class="header"><a href="/">Home</a> <a href="/news">News</a></div><div class="main"><h1>Story ${n}</h1><p>${story}</p><p>${story} again</p></div><div class="footer">Copyright the site</div></body></html>`;
  });
}

describe('the CPU pool', () => {
  const threaded = new CpuPool(1);
  const inline = new CpuPool(0);
  after(() => Promise.all([threaded.close(), inline.close()]));

  test("a template prepared and used in a worker thread reads pages exactly as on the caller's thread", async () => {
    const pages = samplePages(12);
    const [inThread, onCaller] = await Promise.all([threaded.prepare({ method: 'fastce+', pages }), inline.prepare({ method: 'fastce+', pages })]);
    assert.deepEqual(inThread.template, onCaller.template);
    const template = { key: 'site-1:v1:articles', method: 'fastce+', body: inThread.template };
    const page = samplePages(1, 900)[0] as string;
    for (let i = 0; i < 3; i++)
      assert.deepEqual(
        await threaded.extract({ html: page, fallback: 'reader', template }),
        await inline.extract({ html: page, fallback: 'reader', template }),
      );
    const fallback = await threaded.extract({ html: page, fallback: 'reader', template: null });
    assert.equal(fallback.method, 'reader');
  });

  test('a page the methods refuse fails its task with the reason', async () => {
    await assert.rejects(threaded.extract({ html: '', fallback: 'reader', template: null }), /the page is empty/);
    await assert.rejects(threaded.prepare({ method: 'reader', pages: [] }), /reads single pages/);
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ExtractionError, extractWithVge } from '@winnow/extract';
import { HAND_MADE_PAGES, HAND_MADE_SENTENCES } from '@winnow/extract/testing';
import { BrowserUnavailableError } from './chromium.js';
import { PageRenderer } from './renderer.js';

describe('vge on pages rendered in the system Chromium', () => {
  let renderer: PageRenderer;
  before(async () => {
    renderer = await PageRenderer.launch(process.env.WINNOW_CHROMIUM_PATH || '/usr/bin/chromium');
  });
  after(() => renderer.close());

  for (const page of HAND_MADE_PAGES) {
    it(page.name, async () => {
      const text = extractWithVge(await renderer.render(page.html)).text.replace(/\s+/g, ' ');
      let at = -1;
      for (const sentence of HAND_MADE_SENTENCES) {
        const found = text.indexOf(sentence);
        assert.ok(found > at, `missing or out of order: "${sentence.slice(0, 40)}…" in:\n${text}`);
        at = found;
      }
      for (const phrase of page.boilerplate) assert.ok(!text.includes(phrase), `boilerplate "${phrase}" kept in:\n${text}`);
    });
  }

  it('reads geometry from the page alone: scripts do not run and nothing is fetched', async () => {
    const rendered = await renderer.render(
      '<body><p id="p">static text</p><script>document.getElementById("p").textContent = "changed"</script><img src="http://example.invalid/x.png"></body>',
    );
    const texts = rendered.elements.flatMap((element) => element.items.filter((item): item is string => typeof item === 'string'));
    assert.ok(texts.includes('static text'));
    assert.ok(!texts.includes('changed'));
  });

  it('refuses an empty page and survives a very deep one', async () => {
    await assert.rejects(renderer.render('   '), (error: unknown) => error instanceof ExtractionError && error.code === 'empty-input');
    const deep = `${'<div>'.repeat(5000)}deep words here${'</div>'.repeat(5000)}`;
    const result = extractWithVge(await renderer.render(deep));
    assert.ok(result.text.includes('deep words here') || result.warnings.length > 0);
  });

  it('says clearly when there is no browser', async () => {
    await assert.rejects(
      PageRenderer.launch('/nonexistent/chromium'),
      (error: unknown) => error instanceof BrowserUnavailableError && /apt-get install chromium/.test((error as Error).message),
    );
  });
});

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { test } from 'node:test';
import { loadEnv } from '@winnow/config';
import { addSite, openRuntime, startCrawl } from '@winnow/runtime';
import { findPageByUrl, findSite, loadBody } from '@winnow/storage';
import { startCrawler } from './crawler.js';
import { crawlToEnd } from './testing/crawlToEnd.js';
import { closeServer, listenOnLoopback } from '@winnow/demo-corpus';

/** This process's descendants that are Chromium's, by /proc. */
function chromiumProcesses(pid = process.pid): number[] {
  const found: number[] = [];
  let tasks: string[] = [];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return found; // the process ended while we walked the tree
  }
  for (const task of tasks) {
    let children: string[] = [];
    try {
      children = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean);
    } catch {
      continue; // the thread ended
    }
    for (const child of children.map(Number)) {
      let name = '';
      try {
        name = readFileSync(`/proc/${child}/comm`, 'utf8');
      } catch {}
      if (/chrom/i.test(name)) found.push(child);
      found.push(...chromiumProcesses(child));
    }
  }
  return found;
}

test('Chromium is closed once it has nothing to render, and launched again for the next browser crawl', async () => {
  const page = (text: string, link: string) =>
    `<html><body><div id="app"></div><script>document.getElementById('app').innerHTML = '<p>${text}</p><a href="${link}">next</a>';</script></body></html>`;
  const pages: Record<string, string> = { '/': page('Written by the script', '/two.html'), '/two.html': page('The second page', '/') };
  const server = createServer((request, response) => {
    const body = pages[request.url ?? ''];
    if (!body) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'text/html' }).end(body);
  });
  const origin = await listenOnLoopback(server);
  // Chromium's own traffic goes to a proxy that answers nothing: the test reaches no outside host.
  const rt = await openRuntime(loadEnv({ WINNOW_DATA_DIR: 'memory', WINNOW_LOG_LEVEL: 'silent', WINNOW_BROWSER_PROXY: 'http://127.0.0.1:9' }));
  const crawler = startCrawler(rt, { browserIdleMs: 200 });
  const closedAfterCrawl = async () => {
    for (let i = 0; chromiumProcesses().length > 0; i++) {
      assert.ok(i < 600, `Chromium still runs after the crawl: processes ${chromiumProcesses().join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  try {
    await addSite(rt, { name: 'idle', seeds: [`${origin}/`], render: 'browser', templateEveryMs: 0, allowPrivateAddresses: true });
    const first = await crawlToEnd(rt, (await startCrawl(rt, 'idle')).id, 120_000);
    assert.equal(first.counts.stored, 2);
    const site = await findSite(rt.db, 'idle');
    const home = site && (await findPageByUrl(rt.db, site.id, `${origin}/`));
    const body = home?.contentHash ? await loadBody(rt.bodies, home.contentHash) : undefined;
    assert.match(body?.toString('utf8') ?? '', /Written by the script/, 'the page was rendered in Chromium');
    await closedAfterCrawl();

    const second = await crawlToEnd(rt, (await startCrawl(rt, 'idle')).id, 120_000);
    assert.equal(second.counts.unchanged, 2, `rendered again, the same: ${JSON.stringify(second.counts)}`);
    await closedAfterCrawl();
  } finally {
    await crawler.close();
    await rt.close();
    await closeServer(server);
  }
});

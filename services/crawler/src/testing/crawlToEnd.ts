import type { Runtime } from '@winnow/runtime';
import { type Crawl, findCrawl } from '@winnow/storage';

const ENDED = new Set(['finished', 'stopped', 'failed']);

/** Waits until a crawl has ended (the crawler processes of the test run it) and returns it. */
export async function crawlToEnd(rt: Runtime, crawlId: number, timeoutMs = 60_000): Promise<Crawl> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const crawl = await findCrawl(rt.db, crawlId);
    if (!crawl) throw new Error(`crawl ${crawlId} does not exist`);
    if (ENDED.has(crawl.state)) return crawl;
    if (Date.now() > deadline) throw new Error(`crawl ${crawlId} still ${crawl.state} after ${timeoutMs} ms: ${JSON.stringify(crawl.counts)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

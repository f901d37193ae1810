import assert from 'node:assert/strict';

/**
 * The least gap the server may see between two requests to a host with `Crawl-delay: 1`. Starts
 * are confirmed 1000 ms apart in Redis; between that and the server a request may open a
 * connection, and on a loaded machine a process may send late, so the server's clock can see less
 * (865 ms seen; in some tests PGlite and the test's own server share the crawler's thread, and
 * either may hold it). Unpaced, requests land within a few milliseconds of each other, so the
 * margin still tells the two apart.
 */
const CRAWL_DELAY_OF_ONE_SECOND_LEAST_GAP_MS = 500;

/** Fails unless every two consecutive requests (`at`: ms by the server's clock) were a `Crawl-delay: 1` apart, naming the gaps and paths. */
export function assertCrawlDelayOfOneSecondKept(requests: readonly { at: number; path: string }[]): void {
  const inOrder = [...requests].sort((a, b) => a.at - b.at);
  const gaps = inOrder.slice(1).map((request, index) => Math.round(request.at - (inOrder[index] as { at: number }).at));
  assert.ok(
    gaps.every((gap) => gap >= CRAWL_DELAY_OF_ONE_SECOND_LEAST_GAP_MS),
    `requests ${gaps.join(', ')} ms apart against Crawl-delay: 1 (${inOrder.map((request) => request.path).join(' ')})`,
  );
}

import type { Runtime } from '@winnow/runtime';
import { type FetchedResponse, Fetcher, type FetcherOptions, type FetchRequest } from './fetcher.js';
import { statusClass } from './fetchOutcomes.js';

/**
 * The crawler's fetcher, timing each request into `winnow_fetch_duration_seconds` by what it
 * fetched (`robots` or `page`: a page, a sitemap or a rendered page's resource) and its status
 * class (`error` when no response came).
 */
export class MeasuredFetcher extends Fetcher {
  readonly #metrics: Runtime['metrics'];

  constructor(options: FetcherOptions, metrics: Runtime['metrics']) {
    super(options);
    this.#metrics = metrics;
  }

  override async fetch(target: FetchRequest): Promise<FetchedResponse> {
    const started = performance.now();
    const kind = URL.parse(target.url)?.pathname === '/robots.txt' ? 'robots' : 'page';
    let status = 'error';
    try {
      const response = await super.fetch(target);
      status = statusClass(response.status);
      return response;
    } finally {
      this.#metrics.fetchSeconds.observe({ kind, status }, (performance.now() - started) / 1000);
    }
  }
}

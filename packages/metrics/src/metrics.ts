import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/**
 * What the whole pipeline looks like now, read from the database, Redis and the search index when
 * the API's `/metrics` is scraped. Only the API reports it: these are facts of the shared pipeline,
 * not of a process, and would be counted once per worker if every worker exported them.
 */
export interface PipelineState {
  /** Jobs per queue and BullMQ state (`waiting`, `active`, `delayed`, `failed`). */
  queues: readonly { queue: string; state: string; jobs: number }[];
  /** URLs of each site's open crawl still to fetch (`queued`) or being fetched (`in-flight`). */
  frontier: readonly { site: string; state: string; urls: number }[];
  /** Pages per site and stage (`stored`, `extracted`, `indexed`, `read-alone`, `empty`, `failed-extract`, `failed-index`). */
  pages: readonly { site: string; stage: string; pages: number }[];
  /** The health of each current template: pages it read, how many of them alone, their mean words. */
  templates: readonly { site: string; pageType: string; pages: number; readAlone: number; meanWords: number }[];
}

/** Buckets of request-sized durations, in seconds: a fetch, a job. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];
/** Buckets of the time from extraction to the index, in seconds: a batch flush is sub-second, a backlog minutes. */
const LAG_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600];

/**
 * Every metric Winnow exports, declared once, in one registry per runtime (a process, or each
 * pipeline a test opens): in `winnow up` the API's `/metrics` serves what every worker of the
 * process counted; a worker on its own serves its registry on `WINNOW_WORKER_PORT`. Label values
 * are bounded by configuration (sites, hosts the sites allow, page types) or by the code (outcomes,
 * reasons, methods), never by URLs or messages. docs/observability.md says what each one means.
 */
export class PipelineMetrics {
  readonly registry = new Registry();

  // Crawler
  readonly fetches = this.#counter('winnow_fetches_total', 'URLs visited by the crawler, by outcome and reason class', ['outcome', 'reason']);
  readonly fetchSeconds = this.#histogram(
    'winnow_fetch_duration_seconds',
    'Time of one HTTP request of the crawler, connection to last byte, by what was fetched and the status class',
    ['kind', 'status'],
    DURATION_BUCKETS,
  );
  readonly hostBackoffs = this.#counter('winnow_host_backoffs_total', 'Times a host asked the crawler to wait (429 or 503): every crawler stays away from it', [
    'host',
  ]);
  readonly robots = this.#gauge('winnow_host_robots_state', "Each host's robots.txt as the crawler last read it: 1 for its state, 0 for the others", [
    'host',
    'state',
  ]);
  readonly hostInterval = this.#gauge(
    'winnow_host_interval_seconds',
    "The pause each crawler keeps between two fetches from a host, as last in force: the site's delayMs or the host's robots.txt Crawl-delay, the longer",
    ['host'],
  );
  readonly crawlsStarted = this.#counter('winnow_crawls_started_total', 'Crawls this process started', ['site']);
  readonly crawlsEnded = this.#counter('winnow_crawls_ended_total', 'Crawls this process saw end, by how they ended', ['site', 'state']);

  // Extractor
  readonly extractions = this.#counter(
    'winnow_extractions_total',
    "Pages extracted, by method and the pipeline's self-check verdict (agreed, template, read-alone with its reason, or none)",
    ['method', 'verdict', 'reason'],
  );
  readonly templateDrift = this.#counter('winnow_template_drift_total', 'Templates found drifting (most of their pages read alone), once per template', [
    'site',
  ]);

  // Templater
  readonly templatePreparations = this.#counter('winnow_template_preparations_total', 'Template preparations of a site, by why they ran and what came of it', [
    'reason',
    'outcome',
  ]);
  readonly templateVersions = this.#counter('winnow_template_versions_total', 'Template versions stored, by site and why the preparation ran', [
    'site',
    'reason',
  ]);

  // Indexer
  readonly indexWrites = this.#counter(
    'winnow_index_writes_total',
    "Pages the indexer wrote or took out of the search index, by what became of each page's job",
    ['outcome'],
  );
  readonly indexBatchSeconds = this.#histogram(
    'winnow_index_batch_duration_seconds',
    'Time to write one batch of documents to the search index',
    [],
    DURATION_BUCKETS,
  );
  readonly indexLagSeconds = this.#histogram(
    'winnow_index_lag_seconds',
    "Time from a page's extraction to its document being written to the index",
    [],
    LAG_BUCKETS,
  );

  // Every worker's jobs
  readonly jobs = this.#counter('winnow_jobs_total', 'Jobs that ended an attempt, by queue and what came of it (completed, retried, failed for good)', [
    'queue',
    'outcome',
  ]);
  readonly jobSeconds = this.#histogram(
    'winnow_job_duration_seconds',
    "One attempt of a job, from the worker's start to its end",
    ['queue', 'outcome'],
    DURATION_BUCKETS,
  );

  /**
   * What the reconciler (`reconcile` in @winnow/runtime: a sweep comparing the database, the queues
   * and the index) found out of step and queued, by kind: `unextracted`, `unindexed`,
   * `stale-document`, `orphan-document`, `schedule`.
   */
  readonly reconcilerFindings = this.#counter('winnow_reconciler_findings_total', 'Inconsistencies the reconciler found and repaired, by kind', ['kind']);

  // The shared pipeline's state, set when the API's `/metrics` is scraped (`text(state)`)
  readonly #queueJobs = this.#gauge('winnow_queue_jobs', 'Jobs in each queue by state', ['queue', 'state']);
  readonly #frontierUrls = this.#gauge('winnow_frontier_urls', "URLs of each site's open crawl still to fetch (queued) or being fetched (in-flight)", [
    'site',
    'state',
  ]);
  readonly #sitePages = this.#gauge('winnow_site_pages', 'Pages of each site by stage, as they stand after every crawl so far', ['site', 'stage']);
  readonly #templatePages = this.#gauge('winnow_template_pages', "Pages each current template's page type has read", ['site', 'page_type']);
  readonly #templateReadAlone = this.#gauge(
    'winnow_template_read_alone_ratio',
    "Share of each current template's pages the self-check read alone (drift shows here first)",
    ['site', 'page_type'],
  );
  readonly #templateWords = this.#gauge('winnow_template_mean_words', "Mean words of the main text each current template's pages got", ['site', 'page_type']);

  readonly contentType = Registry.PROMETHEUS_CONTENT_TYPE;

  /**
   * This registry's metrics and the process's own (CPU, memory, event loop, GC) in the Prometheus
   * text format; with `state`, the shared pipeline's gauges say it (the API's scrape), else they
   * stay empty (a worker's).
   */
  async text(state?: PipelineState): Promise<string> {
    if (state) this.#setState(state);
    return Registry.merge([this.registry, processRegistry()]).metrics();
  }

  #setState(state: PipelineState): void {
    for (const gauge of [this.#queueJobs, this.#frontierUrls, this.#sitePages, this.#templatePages, this.#templateReadAlone, this.#templateWords])
      gauge.reset();
    for (const { queue, state: jobState, jobs } of state.queues) this.#queueJobs.set({ queue, state: jobState }, jobs);
    for (const { site, state: urlState, urls } of state.frontier) this.#frontierUrls.set({ site, state: urlState }, urls);
    for (const { site, stage, pages } of state.pages) this.#sitePages.set({ site, stage }, pages);
    for (const { site, pageType, pages, readAlone, meanWords } of state.templates) {
      const labels = { site, page_type: pageType };
      this.#templatePages.set(labels, pages);
      this.#templateReadAlone.set(labels, pages === 0 ? 0 : readAlone / pages);
      this.#templateWords.set(labels, meanWords);
    }
  }

  #counter<L extends string>(name: string, help: string, labelNames: readonly L[]): Counter<L> {
    return new Counter<L>({ name, help, labelNames, registers: [this.registry] });
  }

  #gauge<L extends string>(name: string, help: string, labelNames: readonly L[]): Gauge<L> {
    return new Gauge<L>({ name, help, labelNames, registers: [this.registry] });
  }

  #histogram<L extends string>(name: string, help: string, labelNames: readonly L[], buckets: number[]): Histogram<L> {
    return new Histogram<L>({ name, help, labelNames, buckets, registers: [this.registry] });
  }
}

let ofProcess: Registry | undefined;

/**
 * The process's own metrics (prom-client's defaults), collected once per process whatever the
 * number of runtimes it opens: they describe the process, and their collectors (an event-loop
 * monitor, a GC observer) are never stopped.
 */
function processRegistry(): Registry {
  if (!ofProcess) {
    ofProcess = new Registry();
    collectDefaultMetrics({ register: ofProcess });
  }
  return ofProcess;
}

/** The names a scrape can show for each metric of a registry: a histogram's as its `_bucket`, `_sum` and `_count` series. */
export async function seriesNames(metrics: PipelineMetrics): Promise<Set<string>> {
  const names = new Set<string>();
  for (const metric of await Registry.merge([metrics.registry, processRegistry()]).getMetricsAsJSON()) {
    // prom-client's types say an enum; its objects say the type's name.
    const type = String(metric.type);
    if (type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(`${metric.name}${suffix}`);
    else if (type === 'summary') for (const suffix of ['', '_sum', '_count']) names.add(`${metric.name}${suffix}`);
    else names.add(metric.name);
  }
  return names;
}

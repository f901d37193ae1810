import { startApi } from '@winnow/api';
import { loadEnv, type Env } from '@winnow/config';
import { startCrawler } from '@winnow/crawler';
import { startExtractor } from '@winnow/extractor';
import { startIndexer } from '@winnow/indexer';
import { createLogger, openRuntime, waitForIdle, type Runtime, type Service } from '@winnow/runtime';
import { siteCounts } from '@winnow/storage';
import { startTemplater } from '@winnow/templater';
import { MultiBar, Presets } from 'cli-progress';

/** The pipeline's workers by name, as `winnow worker <name>` starts them. */
export const WORKERS: Record<string, (rt: Runtime) => Promise<Service> | Service> = {
  crawler: startCrawler,
  templater: startTemplater,
  extractor: startExtractor,
  indexer: startIndexer,
  api: (rt) => startApi(rt),
};

export const WORKER_NAMES = Object.keys(WORKERS);

/** Every worker but the API, in this process: what embedded commands run their work with. */
export async function startWorkers(rt: Runtime): Promise<Service[]> {
  return [startCrawler(rt), await startTemplater(rt), startExtractor(rt), startIndexer(rt)];
}

export async function closeAll(services: readonly Service[]): Promise<void> {
  await Promise.all(services.map((service) => service.close()));
}

/**
 * Opens the runtime for a command. Commands log warnings only unless `WINNOW_LOG_LEVEL` says
 * otherwise: their own output is what the operator reads.
 */
export async function openCommandRuntime(overrides: Partial<Record<string, string>> = {}): Promise<Runtime> {
  const env: Env = loadEnv({ WINNOW_LOG_LEVEL: 'warn', ...process.env, ...overrides });
  return openRuntime(env, { log: createLogger(env, 'winnow') });
}

/** Runs `work` with a runtime that is closed afterwards, whatever happens. */
export async function withRuntime<T>(work: (rt: Runtime) => Promise<T>, overrides: Partial<Record<string, string>> = {}): Promise<T> {
  const rt = await openCommandRuntime(overrides);
  try {
    return await work(rt);
  } finally {
    await rt.close();
  }
}

/**
 * Waits until the pipeline is idle, drawing one progress bar per stage (pages stored by the
 * crawl, extracted, indexed) on stderr.
 */
export async function followPipeline(rt: Runtime, sites?: readonly string[]): Promise<void> {
  const bars = new MultiBar(
    { stream: process.stderr, hideCursor: true, clearOnComplete: false },
    Presets.shades_classic,
  );
  const bar = (stage: string) => bars.create(0, 0, {}, { format: `${stage.padEnd(9)} {bar} {value}/{total}` });
  const stored = bar('crawled');
  const extracted = bar('extracted');
  const indexed = bar('indexed');
  const tick = async () => {
    const counts = (await siteCounts(rt.db)).filter((count) => !sites || sites.includes(count.site));
    let indexedCount = 0;
    for (const count of counts) indexedCount += await rt.search.count(count.site);
    const storedCount = counts.reduce((sum, count) => sum + count.stored, 0);
    for (const [bar, value] of [
      [stored, storedCount],
      [extracted, counts.reduce((sum, count) => sum + count.extracted, 0)],
      [indexed, indexedCount],
    ] as const) {
      bar.setTotal(Math.max(storedCount, 1));
      bar.update(value);
    }
  };
  try {
    await waitForIdle(rt, tick);
    await tick();
  } finally {
    bars.stop();
  }
}

import { startApi } from '@winnow/api';
import { loadEnv, type Env } from '@winnow/config';
import { startCrawler } from '@winnow/crawler';
import { startExtractor } from '@winnow/extractor';
import { startIndexer } from '@winnow/indexer';
import { createLogger, isIdle, openRuntime, type Runtime, type Service } from '@winnow/runtime';
import { siteCounts } from '@winnow/storage';
import { startTemplater } from '@winnow/templater';
import { followProgress, type PipelineWatch } from './progress.js';
import type { WorkerName } from './workerNames.js';

/** The pipeline's workers by name, as `winnow worker <name>` starts them. */
export const WORKERS: Record<WorkerName, (rt: Runtime) => Promise<Service> | Service> = {
  crawler: startCrawler,
  templater: startTemplater,
  extractor: startExtractor,
  indexer: startIndexer,
  api: (rt) => startApi(rt),
};

/**
 * Every worker but the API, in this process: what embedded commands run their work with. The
 * crawler starts last, once the workers that take its pages are up; a worker that cannot start
 * (a wrong method name) stops the ones already started.
 */
export async function startWorkers(rt: Runtime): Promise<Service[]> {
  const started: Service[] = [];
  try {
    for (const start of [startTemplater, startExtractor, startIndexer, startCrawler]) started.push(await start(rt));
    return started;
  } catch (error) {
    await closeAll(started);
    throw error;
  }
}

export async function closeAll(services: readonly Service[]): Promise<void> {
  await Promise.all(services.map((service) => service.close()));
}

/**
 * A command's configuration. Commands log warnings only unless `WINNOW_LOG_LEVEL` says otherwise:
 * their own output is what the operator reads.
 */
export function commandEnv(overrides: Partial<Record<string, string>> = {}): Env {
  return loadEnv({ WINNOW_LOG_LEVEL: 'warn', ...process.env, ...overrides });
}

/** Opens the runtime for a command. */
export async function openCommandRuntime(overrides: Partial<Record<string, string>> = {}): Promise<Runtime> {
  const env = commandEnv(overrides);
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

/** The pipeline's progress and idleness, read from the runtime here. */
export function localWatch(rt: Runtime): PipelineWatch {
  return {
    isIdle: () => isIdle(rt),
    progress: async (sites) => {
      const counts = (await siteCounts(rt.db)).filter((count) => !sites || sites.includes(count.site));
      let indexed = 0;
      for (const count of counts) indexed += await rt.search.count(count.site);
      return {
        stored: counts.reduce((sum, count) => sum + count.stored, 0),
        extracted: counts.reduce((sum, count) => sum + count.extracted, 0),
        indexed,
      };
    },
  };
}

/** Waits until the pipeline opened here is idle, with progress bars on stderr. */
export async function followPipeline(rt: Runtime, sites?: readonly string[]): Promise<void> {
  await followProgress(localWatch(rt), sites, 200);
}

import type { Service } from '@winnow/runtime';
// The runtime's opening alone: a one-shot command loads the operations it runs while the database opens (`withOperator`).
import { openRuntime, type Runtime, type RuntimeOptions } from '@winnow/runtime/open';
import { commandEnv } from './commandEnv.js';
import type { PipelineWatch } from './progress.js';
import type { WorkerName } from './workerNames.js';

type StartWorker = (rt: Runtime) => Promise<Service> | Service;

/**
 * The pipeline's workers by name, as `winnow worker <name>` starts them, each loaded when started:
 * the crawler alone brings Crawlee and Playwright, which a command that runs no crawl never needs.
 */
export const WORKERS: Record<WorkerName, () => Promise<StartWorker>> = {
  crawler: async () => (await import('@winnow/crawler')).startCrawler,
  templater: async () => (await import('@winnow/templater')).startTemplater,
  extractor: async () => (await import('@winnow/extractor')).startExtractor,
  indexer: async () => (await import('@winnow/indexer')).startIndexer,
  api: async () => {
    const { startApi } = await import('@winnow/api');
    return (rt) => startApi(rt);
  },
};

/**
 * Every worker but the API, in this process: what embedded commands run their work with. The
 * crawler starts last, once the workers that take its pages are up; a worker that cannot start
 * (a wrong method name) stops the ones already started. The reconciler runs beside them, as in
 * every deployment: with a private Redis, which kept nothing of an earlier process's queues, its
 * first run queues again what that process left unextracted or unindexed.
 */
export async function startWorkers(rt: Runtime): Promise<Service[]> {
  const started: Service[] = [];
  try {
    const [{ startReconciler }, ...starts] = await Promise.all([
      import('@winnow/runtime'),
      ...(['templater', 'extractor', 'indexer', 'crawler'] as const).map((name) => WORKERS[name]()),
    ]);
    for (const start of [startReconciler, ...starts]) {
      const service = await start(rt);
      started.push(service);
      workersHere.add(service);
    }
    return started;
  } catch (error) {
    await closeAll(started);
    throw error;
  }
}

/** Workers started by this process and not yet closed: an interrupted command closes them first. */
const workersHere = new Set<Service>();

export async function closeAll(services: readonly Service[]): Promise<void> {
  await Promise.all(
    services.map((service) => {
      workersHere.delete(service);
      return service.close();
    }),
  );
}

/**
 * Opens the runtime for a command; a server's logs at `info` unless `WINNOW_LOG_LEVEL` says
 * otherwise. A command that runs no workers (`runsWorkers` false) opens an embedded database
 * without its maintenance and no private Redis (`RuntimeOptions`): it reads or writes a little and ends.
 */
export async function openCommandRuntime(
  overrides: Partial<Record<string, string>> = {},
  logLevel: 'warn' | 'info' = 'warn',
  runsWorkers = true,
  loadWhileOpening?: RuntimeOptions['loadWhileOpening'],
): Promise<Runtime> {
  return openRuntime(commandEnv(overrides, logLevel), {
    maintainDatabase: runsWorkers,
    queues: runsWorkers,
    ...(loadWhileOpening ? { loadWhileOpening } : {}),
  });
}

/** Exit status of a command interrupted by a signal (128 + SIGINT's number, as shells report it). */
const INTERRUPTED_EXIT = 130;

/**
 * Runs `work` with a runtime that is closed afterwards, whatever happens. Interrupted (Ctrl-C,
 * SIGTERM), the command closes its workers and the runtime before it exits — the embedded
 * database shut down cleanly, the private redis-server stopped and its folder removed — and says
 * what it leaves: a crawl it was running stays open, and the next `winnow crawl` of its site
 * resumes it. A second signal exits at once.
 */
export async function withRuntime<T>(
  work: (rt: Runtime) => Promise<T>,
  overrides: Partial<Record<string, string>> = {},
  options: { runsWorkers?: boolean; loadWhileOpening?: RuntimeOptions['loadWhileOpening'] } = {},
): Promise<T> {
  const rt = await openCommandRuntime(overrides, 'warn', options.runsWorkers === true, options.loadWhileOpening);
  const interrupt = async (): Promise<void> => {
    process.once('SIGINT', () => process.exit(INTERRUPTED_EXIT));
    process.once('SIGTERM', () => process.exit(INTERRUPTED_EXIT));
    process.stderr.write('\ninterrupted: closing the workers and the pipeline (again to quit at once)\n');
    const workersRan = workersHere.size > 0;
    try {
      await closeAll([...workersHere]);
      await rt.close();
    } catch (error) {
      process.stderr.write(`could not close everything: ${(error as Error).message}\n`);
    }
    if (workersRan) {
      process.stderr.write('a crawl this command was running is left unfinished: `winnow crawl <site>` resumes it, `winnow crawl <site> --stop` ends it\n');
    }
    process.exit(INTERRUPTED_EXIT);
  };
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  try {
    return await work(rt);
  } finally {
    process.off('SIGINT', interrupt);
    process.off('SIGTERM', interrupt);
    await rt.close();
  }
}

/** The pipeline's progress and idleness, read from the runtime here. */
export function localWatch(rt: Runtime): PipelineWatch {
  return {
    isIdle: async () => (await import('@winnow/runtime')).isIdle(rt),
    progress: async (sites) => {
      const { siteCounts } = await import('@winnow/storage');
      const counts = (await siteCounts(rt.db)).filter((count) => !sites || sites.includes(count.site));
      let indexed = 0;
      for (const count of counts) indexed += await rt.search.count(count.site);
      return {
        stored: counts.reduce((sum, count) => sum + count.stored, 0),
        extracted: counts.reduce((sum, count) => sum + count.extracted, 0),
        indexed,
        duplicates: counts.reduce((sum, count) => sum + count.duplicates, 0),
      };
    },
  };
}

/** Waits until the pipeline opened here is idle, with progress bars on stderr. */
export async function followPipeline(rt: Runtime, sites?: readonly string[]): Promise<void> {
  await (await import('./progress.js')).followProgress(localWatch(rt), sites, 200);
}

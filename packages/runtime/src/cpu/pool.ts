import { fileURLToPath } from 'node:url';
import type { ExtractionResult, PageCluster, PreparedTemplate } from '@winnow/extract';
import { Piscina } from 'piscina';
import { type ClusterTask, cluster, type ExtractTask, extract, type PrepareTask, prepare } from './tasks.js';

const TASKS = fileURLToPath(new URL('./tasks.js', import.meta.url));
/** A thread idle this long ends (a worker process that extracts nothing keeps none). */
const IDLE_MS = 30_000;

/**
 * The CPU-heavy steps of the pipeline — extracting a page, grouping a site's pages into page types,
 * preparing a template — run in a pool of worker threads (Piscina), so that the event loop that
 * crawls, queues and writes is never held up by them (a template preparation took it for over a
 * second). Threads start on first use. With
 * `threads` 0 the tasks run inline, on the caller's thread.
 */
export class CpuPool {
  readonly #threads: number;
  #pool: Piscina | undefined;

  constructor(threads: number) {
    this.#threads = threads;
  }

  extract(task: ExtractTask): Promise<ExtractionResult> {
    if (this.#threads === 0) return Promise.resolve(extract(task));
    return this.#run(task, 'extract');
  }

  prepare(task: PrepareTask): Promise<PreparedTemplate<unknown>> {
    if (this.#threads === 0) return Promise.resolve(prepare(task));
    return this.#run(task, 'prepare');
  }

  cluster(task: ClusterTask): Promise<PageCluster[]> {
    if (this.#threads === 0) return Promise.resolve(cluster(task));
    return this.#run(task, 'cluster');
  }

  async close(): Promise<void> {
    await this.#pool?.destroy();
    this.#pool = undefined;
  }

  #run<Result>(task: unknown, name: string): Promise<Result> {
    this.#pool ??= new Piscina({ filename: TASKS, minThreads: 0, maxThreads: this.#threads, idleTimeout: IDLE_MS });
    return this.#pool.run(task, { name });
  }
}

import { fileURLToPath } from 'node:url';
import type { ExtractionResult, PageCluster, PreparedTemplate } from '@winnow/extract';
import type { Piscina } from 'piscina';
import type { ClusterTask, ExtractTask, PrepareTask } from './tasks.js';

const TASKS = fileURLToPath(new URL('./tasks.js', import.meta.url));
/** A thread idle this long ends (a worker process that extracts nothing keeps none). */
const IDLE_MS = 30_000;

/**
 * The CPU-heavy steps of the pipeline — extracting a page, grouping a site's pages into page types,
 * preparing a template — run in a pool of worker threads (Piscina), so that the event loop that
 * crawls, queues and writes is never held up by them (a template preparation took it for over a
 * second). Threads start on first use. With
 * `threads` 0 the tasks run inline, on the caller's thread. The tasks (the extraction core) and
 * Piscina load on first use too: a command that extracts nothing never loads them.
 */
export class CpuPool {
  readonly #threads: number;
  #pool: Promise<Piscina> | undefined;

  constructor(threads: number) {
    this.#threads = threads;
  }

  async extract(task: ExtractTask): Promise<ExtractionResult> {
    if (this.#threads === 0) return (await import('./tasks.js')).extract(task);
    return this.#run(task, 'extract');
  }

  async prepare(task: PrepareTask): Promise<PreparedTemplate<unknown>> {
    if (this.#threads === 0) return (await import('./tasks.js')).prepare(task);
    return this.#run(task, 'prepare');
  }

  async cluster(task: ClusterTask): Promise<PageCluster[]> {
    if (this.#threads === 0) return (await import('./tasks.js')).cluster(task);
    return this.#run(task, 'cluster');
  }

  async close(): Promise<void> {
    const pool = this.#pool;
    this.#pool = undefined;
    await (await pool)?.destroy();
  }

  async #run<Result>(task: unknown, name: string): Promise<Result> {
    this.#pool ??= import('piscina').then(({ Piscina }) => new Piscina({ filename: TASKS, minThreads: 0, maxThreads: this.#threads, idleTimeout: IDLE_MS }));
    return (await this.#pool).run(task, { name });
  }
}

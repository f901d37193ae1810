import { Queue, UnrecoverableError, Worker, type ConnectionOptions, type Job, type JobsOptions } from 'bullmq';
import { parseJobPayload, QUEUE_NAMES, type JobPayload, type QueueName } from './contracts.js';
import type { RedisWatch } from './redisWatch.js';

export interface QueueSettings {
  connection: ConnectionOptions;
  /** Prefix of every key, so deployments can share one Redis. */
  prefix: string;
  /** Attempts per job before it is kept as failed. */
  attempts: number;
  /** First retry delay; each later one doubles it. */
  backoffMs: number;
  /** A worker's lock on a job; a dead worker's jobs are taken back once it lapses. */
  lockMs: number;
  /**
   * Hears every queue's and worker's connection (ioredis reconnects them; the runtime logs one line
   * when Redis is lost and one when it is back). Without it a queue's lost connection prints a
   * stack trace for every attempt to reconnect.
   */
  redisWatch?: RedisWatch;
  /** Hears the end of every attempt of a job a worker ran, with how long it took (the runtime counts them in its metrics). */
  onAttemptEnd?: (attempt: JobAttempt) => void;
}

/** One attempt of a job: its queue, how long it ran, and what came of it (`retried`: it failed and will be tried again; `failed`: for good). */
export interface JobAttempt {
  queue: QueueName;
  outcome: 'completed' | 'retried' | 'failed';
  seconds: number;
}

export interface QueueCounts {
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
  completed: number;
}

export interface FailedJob {
  queue: QueueName;
  id: string;
  payload: unknown;
  error: string;
  attempts: number;
  failedAt: Date | null;
}

/**
 * The pipeline's queues. Every job passes its queue's contract before it is added; retries back
 * off exponentially; completed jobs are trimmed, failed ones kept so that `status` shows them.
 */
export class PipelineQueues {
  readonly #queues: Map<QueueName, Queue>;

  constructor(readonly settings: QueueSettings) {
    const defaultJobOptions: JobsOptions = {
      attempts: settings.attempts,
      backoff: { type: 'exponential', delay: settings.backoffMs },
      removeOnComplete: { count: 1000 },
      removeOnFail: false,
    };
    this.#queues = new Map(
      QUEUE_NAMES.map((name) => [name, watched(settings, new Queue(name, { connection: settings.connection, prefix: settings.prefix, defaultJobOptions }))]),
    );
  }

  queue(name: QueueName): Queue {
    return this.#queues.get(name) as Queue;
  }

  /** Starts a worker for one of these queues (`startWorker`), on their connection. */
  startWorker<Name extends QueueName>(name: Name, handle: (payload: JobPayload<Name>, job: Job) => Promise<unknown>, options: WorkerOptions = {}): Worker {
    return startWorker(this.settings, name, handle, options);
  }

  /** Adds a job; returns its id, by which it can be followed (`queue(name).getJob`). */
  async add<Name extends QueueName>(name: Name, payload: JobPayload<Name>, options: JobsOptions = {}): Promise<string> {
    const job = await this.queue(name).add(name, parseJobPayload(name, payload), options);
    return job.id as string;
  }

  /**
   * Adds many jobs. `dedupId` names a job's work (a page and the body it has, say): a job added
   * while another with the same id is still waiting or running is not added again.
   */
  async addBulk<Name extends QueueName>(name: Name, payloads: readonly JobPayload<Name>[], dedupId?: (payload: JobPayload<Name>) => string): Promise<void> {
    const jobs = payloads.map((payload) => ({
      name,
      data: parseJobPayload(name, payload),
      ...(dedupId ? { opts: { deduplication: { id: dedupId(payload) } } } : {}),
    }));
    for (let start = 0; start < jobs.length; start += 1000) await this.queue(name).addBulk(jobs.slice(start, start + 1000));
  }

  async counts(): Promise<Record<QueueName, QueueCounts>> {
    const entries = await Promise.all(
      QUEUE_NAMES.map(async (name) => {
        const counts = await this.queue(name).getJobCounts('waiting', 'active', 'delayed', 'failed', 'completed', 'prioritized', 'waiting-children');
        const count = (key: string) => counts[key] ?? 0;
        return [
          name,
          {
            waiting: count('waiting') + count('prioritized') + count('waiting-children'),
            active: count('active'),
            delayed: count('delayed'),
            failed: count('failed'),
            completed: count('completed'),
          },
        ] as const;
      }),
    );
    return Object.fromEntries(entries) as Record<QueueName, QueueCounts>;
  }

  /** Runs a failed job again (an operator's retry); false when the queue has no such failed job. */
  async retryFailed(name: QueueName, id: string): Promise<boolean> {
    const job = await this.queue(name).getJob(id);
    if (!job || !(await job.isFailed())) return false;
    await job.retry('failed');
    return true;
  }

  async failedJobs(limit = 50): Promise<FailedJob[]> {
    const lists = await Promise.all(
      QUEUE_NAMES.map(async (name) =>
        (await this.queue(name).getFailed(0, limit - 1)).map(
          (job): FailedJob => ({
            queue: name,
            id: job.id ?? '?',
            payload: job.data,
            error: job.failedReason,
            attempts: job.attemptsMade,
            failedAt: job.finishedOn ? new Date(job.finishedOn) : null,
          }),
        ),
      ),
    );
    return lists
      .flat()
      .sort((a, b) => (b.failedAt?.getTime() ?? 0) - (a.failedAt?.getTime() ?? 0))
      .slice(0, limit);
  }

  /** Closes the queues; during an outage the process stopped waiting for (`RedisWatch.stopWaiting`), without waiting for Redis. */
  async close(): Promise<void> {
    const { redisWatch } = this.settings;
    await Promise.all([...this.#queues.values()].map((queue) => (redisWatch ? redisWatch.closing(queue.close()) : queue.close())));
  }
}

export interface WorkerOptions {
  concurrency?: number;
  /** Called once a job has used its last attempt, with the validated payload when it had one. */
  onGiveUp?: (payload: unknown, error: Error, attempts: number) => Promise<void>;
}

/**
 * Starts a worker for one queue. The payload is validated first: an invalid one fails the job at
 * once (retrying cannot fix it) and stays visible among the failed jobs. A handler throws
 * `UnrecoverableError` for the same reason (a page that no longer exists, say).
 */
export function startWorker<Name extends QueueName>(
  settings: QueueSettings,
  name: Name,
  handle: (payload: JobPayload<Name>, job: Job) => Promise<unknown>,
  options: WorkerOptions = {},
): Worker {
  const worker = new Worker(
    name,
    async (job) => {
      const started = performance.now();
      const ended = (outcome: JobAttempt['outcome']) => settings.onAttemptEnd?.({ queue: name, outcome, seconds: (performance.now() - started) / 1000 });
      try {
        let payload: JobPayload<Name>;
        try {
          payload = parseJobPayload(name, job.data);
        } catch (error) {
          throw new UnrecoverableError((error as Error).message);
        }
        const result = await handle(payload, job);
        ended('completed');
        return result;
      } catch (error) {
        // `attemptsMade` counts the attempts before this one.
        ended(error instanceof UnrecoverableError || job.attemptsMade + 1 >= (job.opts.attempts ?? 1) ? 'failed' : 'retried');
        throw error;
      }
    },
    {
      connection: settings.connection,
      prefix: settings.prefix,
      concurrency: options.concurrency ?? 1,
      lockDuration: settings.lockMs,
      stalledInterval: settings.lockMs,
    },
  );
  worker.on('failed', (job, error) => {
    if (!job || !options.onGiveUp) return;
    const finalAttempt = job.attemptsMade >= (job.opts.attempts ?? 1) || error instanceof UnrecoverableError;
    if (finalAttempt) void options.onGiveUp(job.data, error, job.attemptsMade).catch(() => undefined);
  });
  // Connection errors are retried by ioredis; a listener keeps them from crashing the process, and says them.
  return watched(settings, worker);
}

/** `source` heard by the settings' `RedisWatch`; without one, its errors are still listened to (ioredis retries them). */
function watched<Source extends Queue | Worker>(settings: QueueSettings, source: Source): Source {
  if (settings.redisWatch) return settings.redisWatch.watch(source);
  if (source instanceof Worker) source.on('error', () => undefined);
  return source;
}

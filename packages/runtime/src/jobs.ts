import type { JobPayload, QueueName, Worker, WorkerOptions } from '@winnow/queue';
import { whileUnavailable } from './retry.js';
import type { Runtime } from './runtime.js';

/**
 * Starts a worker of the pipeline for one queue, whose jobs wait out an outage instead of spending
 * their attempts on it: while the work fails because Postgres, Redis or the search index cannot be
 * reached (`isUnavailable`), it runs again in this process, the job still held (BullMQ renews its
 * lock), for up to `WINNOW_INFRA_RETRY_MS`, the crawler's rule too; only then does the attempt fail.
 * The queue's attempts (`WINNOW_JOB_ATTEMPTS`, seconds of backoff) are for errors of the work itself:
 * spent on a 20-second outage, they failed pages for good and lost their search documents.
 * Waiting here rather than moving the job back to the queue needs no Redis to wait, and keeps the
 * worker from taking more jobs that could only wait too.
 */
export function startPipelineWorker<Name extends QueueName>(
  rt: Runtime,
  name: Name,
  handle: (payload: JobPayload<Name>) => Promise<unknown>,
  options: WorkerOptions = {},
): Worker {
  return rt.queues.startWorker(
    name,
    (payload, job) => {
      let told = false;
      return whileUnavailable(
        () => handle(payload),
        rt.env.WINNOW_INFRA_RETRY_MS,
        (error) => {
          if (told) return;
          told = true;
          rt.log.warn(
            { err: error, queue: name, job: job.id, payload },
            `${name} job ${job.id} waits: an engine cannot be reached (it tries again for ${rt.env.WINNOW_INFRA_RETRY_MS} ms)`,
          );
        },
      );
    },
    options,
  );
}

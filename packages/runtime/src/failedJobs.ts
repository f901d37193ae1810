import { QUEUE_NAMES, type QueueName } from '@winnow/queue/contracts';
import { InvalidRequestError, quoted } from './operations.js';
import { WinnowError } from '@winnow/config';
import type { Runtime } from './runtime.js';

/**
 * Runs a failed job of the pipeline again, as an operator asks from the console once the cause
 * is fixed (an index that was down, a body store that was unreachable). A queue that does not
 * exist is a bad request; a job that is not failed there is not found.
 */
export async function retryFailedJob(rt: Runtime, queue: string, id: string): Promise<{ queue: QueueName; id: string; retried: true }> {
  if (!(QUEUE_NAMES as readonly string[]).includes(queue)) throw new InvalidRequestError(`no queue ${quoted(queue)}: the queues are ${QUEUE_NAMES.join(', ')}`);
  const name = queue as QueueName;
  if (!(await rt.queues.retryFailed(name, id)))
    throw new WinnowError('not-found', `the ${name} queue has no failed job ${quoted(id)} (retried already, or removed)`);
  return { queue: name, id, retried: true };
}

import { setTimeout as sleep } from 'node:timers/promises';
import { type Readiness, readiness, type Runtime } from '@winnow/runtime';
import type { FastifyInstance, RouteOptions } from 'fastify';

/** How long a read may go unanswered before the engines are checked, and again after each check that finds them all up. */
const CHECK_ENGINES_AFTER_MS = 1000;

/**
 * A read that waits on an engine that is down, found by `/ready`'s checks: `unavailable`, so the
 * error handler answers 503 naming the engines from these checks (no second round of them).
 */
export class EngineDownError extends Error {
  override readonly name = 'EngineDownError';
  readonly unavailable = true;
  constructor(readonly checks: Readiness['checks']) {
    super('an engine the request needs cannot be reached');
  }
}

/**
 * Makes every GET route (HEAD too) answer 503 naming the engine that is down, rather than wait for
 * it to come back: each read still unanswered after `CHECK_ENGINES_AFTER_MS` has the engines
 * checked, and fails once a check fails. Postgres and Elasticsearch refuse at once when they are
 * down, but Redis commands wait for the connection to return (ioredis's offline queue, which
 * BullMQ's workers need), so `/status` hung for a whole Redis outage. Only reads: a write left
 * running could still happen after its caller was told to try again. Must be added before the routes.
 */
export function answerReadsWhileEnginesAreDown(app: FastifyInstance, rt: Runtime): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.every((method) => method === 'GET' || method === 'HEAD')) return;
    const handler = route.handler;
    route.handler = async function (this: FastifyInstance, request, reply) {
      const watching = new AbortController();
      try {
        return await Promise.race([handler.call(this, request, reply), engineDown(rt, watching.signal)]);
      } finally {
        watching.abort();
      }
    };
  });
}

/** Rejects with `EngineDownError` at the first check that finds an engine down; checks until `signal` aborts. */
async function engineDown(rt: Runtime, signal: AbortSignal): Promise<never> {
  for (;;) {
    await sleep(CHECK_ENGINES_AFTER_MS, undefined, { signal });
    const { ready, checks } = await readiness(rt);
    if (!ready && !signal.aborted) throw new EngineDownError(checks);
  }
}

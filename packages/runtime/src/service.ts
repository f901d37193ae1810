import { loadEnv } from '@winnow/config';
import { recordPageFailure, type Stage } from '@winnow/storage';
import { createLogger, openRuntime, type Runtime } from './runtime.js';

/** A started worker or server of the pipeline. */
export interface Service {
  close(): Promise<void>;
}

/**
 * Runs services as this process's whole job (a deployable's `main`): opens the runtime from the
 * environment, starts them, and on SIGTERM or SIGINT closes them (workers finish their current
 * jobs) and then the runtime. A second signal exits at once.
 */
export async function runStandalone(name: string, start: (rt: Runtime) => Promise<Service[]> | Service[]): Promise<void> {
  const env = loadEnv();
  const log = createLogger(env, name);
  const rt = await openRuntime(env, { log });
  const services = await start(rt);
  log.info('started');
  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) process.exit(130);
    stopping = true;
    log.info({ signal }, 'stopping');
    await Promise.all(services.map((service) => service.close()));
    await rt.close();
    process.exit(0);
  };
  process.on('SIGTERM', (signal) => void stop(signal));
  process.on('SIGINT', (signal) => void stop(signal));
}

/**
 * A worker's `onGiveUp` for page jobs: the page is kept in `page_failures` with the error (so
 * `status` shows it) and the failure is logged.
 */
export function keepPageFailure(rt: Runtime, stage: Stage): (payload: unknown, error: Error, attempts: number) => Promise<void> {
  return async (payload, error, attempts) => {
    const pageId = (payload as { pageId?: unknown } | null)?.pageId;
    if (typeof pageId === 'number') await recordPageFailure(rt.db, pageId, stage, error.message, attempts).catch(() => undefined);
    rt.log.error({ payload, err: error, stage }, 'a page job failed for good');
  };
}

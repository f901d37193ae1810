import { loadEnv } from '@winnow/config';
import { recordPageFailure, type Stage } from '@winnow/storage';
import { startHealthServer } from './health.js';
import { createLogger, openRuntime, type Runtime } from './runtime.js';

/** A started worker or server of the pipeline. */
export interface Service {
  close(): Promise<void>;
}

/**
 * Serves until SIGTERM or SIGINT: starts the services on the runtime, then on the first signal
 * closes them (workers finish their current jobs) and the runtime; a second signal exits at once.
 * Services that cannot start (a refused API address, a wrong method name) close the runtime and
 * the error is thrown, so that the process ends with it instead of hanging. The one way every
 * process of Winnow serves: the services' `main`s and `winnow up` / `winnow worker`.
 */
export async function serve(rt: Runtime, start: () => Promise<Service[]>, onStarted: (services: Service[]) => void = () => undefined): Promise<void> {
  let services: Service[];
  try {
    services = await start();
  } catch (error) {
    await rt.close();
    throw error;
  }
  onStarted(services);
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
  });
  const again = () => process.exit(130);
  process.once('SIGTERM', again);
  process.once('SIGINT', again);
  rt.log.info({ signal }, 'stopping: finishing current jobs');
  await Promise.all(services.map((service) => service.close()));
  await rt.close();
}

/**
 * A deployable's `main`: the runtime from the environment, its services served (and the probe
 * port, when `WINNOW_HEALTH_PORT` is set), the process ended when they are closed.
 */
export async function runStandalone(name: string, start: (rt: Runtime) => Promise<Service[]> | Service[]): Promise<void> {
  const env = loadEnv();
  const rt = await openRuntime(env, { log: createLogger(env, name) });
  const port = env.WINNOW_HEALTH_PORT;
  await serve(
    rt,
    async () => {
      const services = await start(rt);
      return port === undefined ? services : [...services, await startHealthServer(rt, env.WINNOW_HEALTH_HOST, port)];
    },
    () => rt.log.info('started'),
  );
  process.exit(0);
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

import { ConfigError, type Env, loadEnv } from '@winnow/config';
import { recordPageFailure, type Stage } from '@winnow/storage';
import { startActivityLog } from './activity.js';
import { whileUnavailable } from './retry.js';
import { createLogger } from './logger.js';
import { openRuntime, type Runtime } from './runtime.js';
import { startWorkerPort, type WorkerPort } from './workerPort.js';

/** A started worker or server of the pipeline. */
export interface Service {
  close(): Promise<void>;
  /** Where this service serves the process's metrics, if it does (the API's `/metrics`). */
  readonly metricsUrl?: string;
}

/**
 * A worker process's own port (`startWorkerPort`) when `WINNOW_WORKER_PORT` is configured and
 * none of the process's services serves the metrics already (the API does, for every worker of
 * `winnow up`, with `/health` and `/ready` beside them).
 */
async function workerPort(rt: Runtime, services: readonly Service[]): Promise<WorkerPort | undefined> {
  const port = rt.env.WINNOW_WORKER_PORT;
  if (port === undefined || services.some((service) => service.metricsUrl !== undefined)) return undefined;
  return startWorkerPort(rt, rt.env.WINNOW_WORKER_HOST, port);
}

/**
 * Serves until SIGTERM or SIGINT: starts the services on the runtime (and the worker's port, see
 * `workerPort`), logs what they do every `WINNOW_LOG_INTERVAL_MS` (`startActivityLog`), then
 * on the first signal closes them (workers finish their current jobs), logs their last activity and
 * closes the runtime; a second signal exits at once.
 * Services that cannot start (a refused API address, a wrong method name) close the runtime and
 * the error is thrown, so that the process ends with it instead of hanging. The one way every
 * process of Winnow serves: the services' `main`s and `winnow up` / `winnow worker`.
 */
export async function serve(
  rt: Runtime,
  start: () => Promise<Service[]>,
  onStarted: (services: Service[], metricsUrl: string | undefined) => void = () => undefined,
): Promise<void> {
  let services: Service[];
  let listener: WorkerPort | undefined;
  try {
    services = await start();
    try {
      listener = await workerPort(rt, services);
    } catch (error) {
      await Promise.all(services.map((service) => service.close()));
      throw error;
    }
  } catch (error) {
    await rt.close();
    throw error;
  }
  const activity = startActivityLog(rt.metrics, rt.log, rt.env.WINNOW_LOG_INTERVAL_MS);
  onStarted(services, listener ? `${listener.url}/metrics` : services.find((service) => service.metricsUrl !== undefined)?.metricsUrl);
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
  });
  const again = () => process.exit(130);
  process.once('SIGTERM', again);
  process.once('SIGINT', again);
  rt.log.info({ signal }, 'stopping: finishing current jobs');
  if (rt.queuesOpen) rt.queueSettings.redisWatch?.stopWaiting();
  await Promise.all(services.map((service) => service.close()));
  await activity.stop();
  await listener?.close();
  await rt.close();
}

/**
 * A deployable's `main`: the runtime from the environment, its services served (and the worker's
 * port, when `WINNOW_WORKER_PORT` is set), the process ended when they are closed.
 */
export async function runStandalone(name: string, start: (rt: Runtime) => Promise<Service[]> | Service[]): Promise<void> {
  let env: Env;
  let rt: Runtime;
  try {
    env = loadEnv();
    rt = await openRuntime(env, { log: createLogger(env, name) });
  } catch (error) {
    // The operator's to correct: one line and exit 2, as a usage error, not a stack trace.
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${name}: ${error.message}\n`);
    process.exit(2);
  }
  await serve(
    rt,
    async () => start(rt),
    (_services, metricsUrl) => rt.log.info({ metrics: metricsUrl ?? null }, `${name} started${metricsUrl ? `; metrics on ${metricsUrl}` : ''}`),
  );
  process.exit(0);
}

/**
 * A worker's `onGiveUp` for page jobs: the page is kept in `page_failures` with the error (so
 * `status` shows it) and the failure is logged. A failure that cannot be written while the
 * database is down is written once it is back (`WINNOW_INFRA_RETRY_MS`): a page failed for good
 * with no record of it would be a silent loss.
 */
export function keepPageFailure(rt: Runtime, stage: Stage): (payload: unknown, error: Error, attempts: number) => Promise<void> {
  return async (payload, error, attempts) => {
    const pageId = (payload as { pageId?: unknown } | null)?.pageId;
    if (typeof pageId === 'number') {
      await whileUnavailable(() => recordPageFailure(rt.db, pageId, stage, error.message, attempts), rt.env.WINNOW_INFRA_RETRY_MS).catch(
        (recordError: unknown) => rt.log.error({ err: recordError, pageId, stage }, `the failure of page ${pageId} could not be recorded`),
      );
    }
    rt.log.error(
      { payload, err: error, stage, attempts },
      `${stage} of ${typeof pageId === 'number' ? `page ${pageId}` : 'a page'} failed for good after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${error.message}`,
    );
  };
}

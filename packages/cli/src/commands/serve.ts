import { type ApiService, NO_OPERATE_TOKEN, refuseUnprotectedApi, startApi } from '@winnow/api';
import { serve, startReconciler } from '@winnow/runtime';
import { commandEnv } from '../commandEnv.js';
import { openCommandRuntime, startWorkers, WORKERS } from '../pipeline.js';
import { UsageError } from '../usageError.js';
import { WORKER_NAMES, type WorkerName } from '../workerNames.js';

/** `winnow up`: every worker and the API in this process; the API first, since its configuration may refuse it. */
export async function upCommand(): Promise<void> {
  refuseUnprotectedApi(commandEnv({}, 'info'));
  const rt = await openCommandRuntime({}, 'info');
  await serve(
    rt,
    async () => {
      const api = await startApi(rt);
      try {
        return [api, ...(await startWorkers(rt))];
      } catch (error) {
        await api.close();
        throw error;
      }
    },
    ([api]) => {
      const { url } = api as ApiService;
      const index = rt.search.kind === 'elasticsearch' ? 'Elasticsearch' : 'the Postgres full-text index';
      const noOperator = rt.env.WINNOW_API_TOKEN.some((token) => token.scope === 'operate') ? '' : `${NO_OPERATE_TOKEN}\n`;
      // One write: a reader waiting for the first line sees the second with it.
      process.stderr.write(
        `winnow is up: API on ${url} (metrics on ${url}/metrics, console on ${url}/console/), ${rt.env.DATABASE_URL ? 'Postgres' : 'embedded PGlite'}, ${rt.privateRedis ? 'a private redis-server' : 'Redis'}, ${index}\n${noOperator}`,
      );
    },
  );
}

/** `winnow worker <name>`: one service as this process's only job. */
export async function workerCommand(name: string): Promise<void> {
  if (!(WORKER_NAMES as readonly string[]).includes(name)) throw new UsageError(`unknown worker "${name}"; known: ${WORKER_NAMES.join(', ')}`);
  if (name === 'api') refuseUnprotectedApi(commandEnv({}, 'info'));
  const start = await WORKERS[name as WorkerName]();
  const rt = await openCommandRuntime({}, 'info');
  if (rt.privateRedis && name !== 'api')
    process.stderr.write('warning: no REDIS_URL: this worker has a private Redis that no other process can enqueue into\n');
  await serve(
    rt,
    async () => (name === 'api' ? [await start(rt)] : [await start(rt), await startReconciler(rt)]),
    (_services, metricsUrl) => process.stderr.write(`worker ${name} started${metricsUrl ? `; metrics on ${metricsUrl}` : ''}\n`),
  );
}

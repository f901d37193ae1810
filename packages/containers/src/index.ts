import { readFileSync } from 'node:fs';
import { chmod } from 'node:fs/promises';
import { GenericContainer, getContainerRuntimeClient, type StartedTestContainer, Wait } from 'testcontainers';
import { freePort } from './freePort.js';

export { freePort };

/**
 * Which images the integration tests' engines run in, chosen by one switch,
 * `WINNOW_TEST_CONTAINERS` (unset: the tests use local engines, as `pnpm test` does):
 * - `local`: the images infra/docker/build-images.sh builds from Debian's archive, each container on
 *   the host's network listening on 127.0.0.1 at a port the test picks. For machines whose Docker
 *   has no bridge and reaches no registry (published ports are ignored there).
 * - `official`: the official postgres, redis and elasticsearch images from a registry, on Docker's
 *   default network with a published port: a normal Docker.
 */
export type ContainerImages = 'local' | 'official';

export function containerImages(env: NodeJS.ProcessEnv = process.env): ContainerImages | undefined {
  const value = env.WINNOW_TEST_CONTAINERS;
  if (!value) return undefined;
  if (value !== 'local' && value !== 'official') throw new Error(`WINNOW_TEST_CONTAINERS must be "local" or "official", not "${value}"`);
  return value;
}

/** The label on every container the tests start; `WINNOW_TEST_RUN` tells one run's apart, so that the run removes what it left. */
export const TEST_LABEL = 'winnow.tests';

const ELASTICSEARCH_VERSION = /<elasticsearch.version>([\d.]+)</.exec(
  readFileSync(new URL('../../../infra/elasticsearch-local/pom.xml', import.meta.url), 'utf8'),
)?.[1];

/** The images, by mode. The official Postgres is the one docker-compose.yml runs; Debian's archive has 15. */
export const IMAGES = {
  local: { postgres: 'winnow-local/postgres:15', redis: 'winnow-local/redis:7', elasticsearch: `winnow-local/elasticsearch:${ELASTICSEARCH_VERSION}` },
  official: {
    postgres: 'postgres:16',
    redis: 'redis:7',
    elasticsearch: `docker.elastic.co/elasticsearch/elasticsearch:${ELASTICSEARCH_VERSION}`,
  },
} as const;

export interface EngineContainer {
  url: string;
  /** Stops and removes the container; data in a folder given to it stays. */
  stop(): Promise<void>;
}

function modeOrThrow(): ContainerImages {
  const mode = containerImages();
  if (!mode) throw new Error('WINNOW_TEST_CONTAINERS is unset: the engines run locally, not in containers');
  if (mode === 'local') {
    // The machine has /.dockerenv, so testcontainers would look for the daemon's gateway; the
    // reaper's image is on Docker Hub. Containers are removed by label instead.
    process.env.TESTCONTAINERS_HOST_OVERRIDE ??= '127.0.0.1';
    process.env.TESTCONTAINERS_RYUK_DISABLED ??= 'true';
  }
  return mode;
}

/**
 * A container listening on `port` of 127.0.0.1: on the host's network with the port in its command
 * (local), or publishing its `inside` port there (official). The port is fixed so that a container
 * started again in its place keeps the URL.
 */
function engine(image: string, mode: ContainerImages, port: number, inside: number): GenericContainer {
  const container = new GenericContainer(image).withLabels({ [TEST_LABEL]: 'true', [`${TEST_LABEL}.run`]: process.env.WINNOW_TEST_RUN ?? 'none' });
  return mode === 'local' ? container.withNetworkMode('host') : container.withExposedPorts({ container: inside, host: port });
}

async function started(container: GenericContainer): Promise<StartedTestContainer> {
  return container.withStartupTimeout(300_000).start();
}

/** Stops once: a second call (a test's `finally` after its own stop) does nothing, as a stopped server's would. */
const stopper = (container: StartedTestContainer) => {
  let stopped: Promise<unknown> | undefined;
  return async () => void (await (stopped ??= container.stop({ remove: true, removeVolumes: true })));
};

/**
 * PostgreSQL with user and password `postgres`. With `dataDir`, the cluster lives in that host
 * folder, so that a container started again on it (same `port`) finds the data.
 */
export async function startPostgresContainer(options: { port?: number; dataDir?: string } = {}): Promise<EngineContainer> {
  const mode = modeOrThrow();
  const port = options.port ?? (await freePort());
  const inside = mode === 'local' ? port : 5432;
  let container = engine(IMAGES[mode].postgres, mode, port, 5432)
    .withEnvironment({ POSTGRES_PASSWORD: 'postgres' })
    .withCommand(['postgres', '-c', `port=${inside}`, '-c', `listen_addresses=${mode === 'local' ? '127.0.0.1' : '*'}`, '-c', 'fsync=off'])
    // The official image's first start runs a server on a socket only; TCP answers once the real one is up.
    .withWaitStrategy(Wait.forSuccessfulCommand(`pg_isready -h 127.0.0.1 -p ${inside}`));
  if (options.dataDir) {
    await chmod(options.dataDir, 0o777); // the image's postgres user takes it over
    container = container.withBindMounts([{ source: options.dataDir, target: '/var/lib/postgresql/data' }]);
  }
  const running = await started(container);
  return { url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`, stop: stopper(running) };
}

/** Redis without persistence: a container started again on the same port comes back empty, as Redis does after a crash. */
export async function startRedisContainer(options: { port?: number } = {}): Promise<EngineContainer> {
  const mode = modeOrThrow();
  const port = options.port ?? (await freePort());
  const listen = mode === 'local' ? ['--port', String(port), '--bind', '127.0.0.1'] : [];
  const running = await started(
    engine(IMAGES[mode].redis, mode, port, 6379)
      .withCommand(['redis-server', ...listen, '--save', '', '--appendonly', 'no'])
      .withWaitStrategy(Wait.forLogMessage(/Ready to accept connections/)),
  );
  return { url: `redis://127.0.0.1:${port}`, stop: stopper(running) };
}

/** A single-node Elasticsearch without security. With `dataDir`, its data lives in that host folder. */
export async function startElasticsearchContainer(options: { port?: number; dataDir?: string } = {}): Promise<EngineContainer> {
  const mode = modeOrThrow();
  const port = options.port ?? (await freePort());
  let container = engine(IMAGES[mode].elasticsearch, mode, port, 9200);
  container =
    mode === 'local'
      ? container.withCommand(['--port', String(port)]).withWaitStrategy(Wait.forLogMessage(/^ELASTICSEARCH_URL=/m))
      : container
          .withEnvironment({
            'discovery.type': 'single-node',
            'xpack.security.enabled': 'false',
            'cluster.routing.allocation.disk.threshold_enabled': 'false',
            ES_JAVA_OPTS: '-Xms512m -Xmx1g',
          })
          .withWaitStrategy(Wait.forHttp('/_cluster/health?wait_for_status=yellow&timeout=30s', 9200).forStatusCode(200));
  if (options.dataDir) {
    await chmod(options.dataDir, 0o777); // the image's elasticsearch user writes there
    container = container.withBindMounts([{ source: options.dataDir, target: '/usr/share/elasticsearch/data' }]);
  }
  const running = await started(container);
  return { url: `http://127.0.0.1:${port}`, stop: stopper(running) };
}

/** Removes the running containers the tests labelled: those of one run (`WINNOW_TEST_RUN`), or all of them. */
export async function removeTestContainers(run?: string): Promise<number> {
  const client = await getContainerRuntimeClient();
  const containers = await client.container.list();
  const ours = containers.filter((info) => info.Labels?.[TEST_LABEL] === 'true' && (run === undefined || info.Labels?.[`${TEST_LABEL}.run`] === run));
  await Promise.all(ours.map((info) => client.container.getById(info.Id).remove({ force: true, v: true })));
  return ours.length;
}

#!/usr/bin/env node
// Runs compiled tests with Node's test runner, in one run so that the summary counts all of them.
// Usage: run-tests.mjs <unit|integration|stress|all|containers> [package folder ...]   (default: every package)
// Tests are named by kind: `*.integration.test.ts` talk to real Redis, Postgres, Elasticsearch or
// Chromium; `*.stress.test.ts` are pathological inputs; `*.containers.test.ts` need a Docker
// engine; the rest are unit tests. Build first.
// When the run includes tests that use Elasticsearch (elasticsearchForTests) and ELASTICSEARCH_URL
// is unset, one local node (infra/elasticsearch-local) serves the whole run, then stops.
// `containers` (`pnpm test:containers`) runs the integration tests that use Postgres, Redis or
// Elasticsearch, and the `*.containers.test.ts`, with every engine in a container that
// testcontainers starts: WINNOW_TEST_CONTAINERS picks the images (`local`, the default: built by
// infra/docker/build-images.sh, host networking, and the compose stack's test; `official`: a
// registry's, on a normal Docker). One Postgres and one Elasticsearch serve the whole run; every
// container the run labelled is removed.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const [kind = 'all', ...folders] = process.argv.slice(2);
const kinds = {
  unit: ['unit'],
  integration: ['integration'],
  stress: ['stress'],
  all: ['unit', 'integration', 'stress'],
  containers: ['integration', 'containers'],
}[kind];
if (!kinds) {
  console.error(`unknown test kind "${kind}": unit, integration, stress, all or containers`);
  process.exit(2);
}
const packages =
  folders.length > 0
    ? folders.map((folder) => resolve(folder))
    : ['packages', 'services'].flatMap((group) => readdirSync(join(root, group)).map((name) => join(root, group, name)));
const kindOf = (file) => ['integration', 'stress', 'containers'].find((name) => file.endsWith(`.${name}.test.js`)) ?? 'unit';
/** The compose stack's test runs the host-network override: only with the local images. */
const hostNetwork = (process.env.WINNOW_TEST_CONTAINERS || 'local') === 'local';
/** The helpers through which a test reaches Postgres, Redis or Elasticsearch (each starts a container under test:containers). */
const ENGINE_HELPERS = /\b(createScratchDatabase|startPostgresServer|startRedisServer|elasticsearchForTests|startLocalElasticsearch)\b/;
const files = packages.flatMap((folder) => {
  const dist = join(folder, 'dist');
  if (!existsSync(dist)) return [];
  return readdirSync(dist, { recursive: true })
    .map(String)
    .filter((file) => file.endsWith('.test.js') && kinds.includes(kindOf(file)))
    .map((file) => join(dist, file))
    .filter((file) => kind !== 'containers' || (kindOf(file) === 'containers' ? hostNetwork : ENGINE_HELPERS.test(readFileSync(file, 'utf8'))));
});
if (files.length === 0) {
  if (packages.some((folder) => existsSync(join(folder, 'dist')))) process.exit(0); // nothing of this kind here
  console.error('no compiled tests found: run `pnpm build` first');
  process.exit(1);
}

const containers = kind === 'containers' ? await startContainers() : undefined;
let elasticsearch;
if (!process.env.ELASTICSEARCH_URL && files.some((file) => readFileSync(file, 'utf8').includes('elasticsearchForTests'))) {
  const { startLocalElasticsearch } = await import(join(root, 'packages/search/dist/testing/index.js'));
  console.error('starting a local Elasticsearch node for the tests…');
  elasticsearch = await startLocalElasticsearch();
}
const env = { ...process.env, ...(elasticsearch ? { ELASTICSEARCH_URL: elasticsearch.url } : {}) };
const child = spawn(process.execPath, ['--test', '--test-reporter=spec', '--test-concurrency=2', ...files], { stdio: 'inherit', env });
const status = await new Promise((done) => child.once('exit', (code) => done(code ?? 1)));
await elasticsearch?.stop();
await containers?.remove();
process.exit(status);

/** The run's shared engines in containers; their URLs and the switch go to the tests' environment. */
async function startContainers() {
  process.env.WINNOW_TEST_CONTAINERS ||= 'local';
  process.env.WINNOW_TEST_RUN = `run-${process.pid}-${Date.now()}`;
  const { containerImages, removeTestContainers, startElasticsearchContainer, startPostgresContainer } = await import(
    join(root, 'packages/containers/dist/index.js')
  );
  const images = containerImages();
  const remove = () => removeTestContainers(process.env.WINNOW_TEST_RUN);
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => void remove().finally(() => process.exit(130)));
  console.error(`starting Postgres and Elasticsearch containers (${images} images)…`);
  try {
    const [postgres, elasticsearch] = await Promise.all([startPostgresContainer(), startElasticsearchContainer()]);
    process.env.WINNOW_TEST_POSTGRES_URL = postgres.url;
    process.env.ELASTICSEARCH_URL = elasticsearch.url;
  } catch (error) {
    await remove();
    throw error;
  }
  return { remove };
}

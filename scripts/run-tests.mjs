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
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
/** Each test file's time in the last run that included it, on this machine: the next run's order. */
const TIMES_FILE = join(root, 'node_modules/.cache/winnow/test-times.json');
/**
 * The same, recorded once on a quiet machine of this project's kind and kept in the repository: the
 * order of a fresh clone's first run, and of files this machine has not run yet. Refreshed by
 * copying TIMES_FILE over it after a full run (docs/testing.md).
 */
const RECORDED_TIMES_FILE = join(root, 'scripts/test-times.json');
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

/**
 * Test files at once (WINNOW_TEST_CONCURRENCY overrides): one per core for unit tests, which only
 * compute; twice that with integration files on this machine's engines, since they spend most of
 * their time waiting (for a crawl paced by its site, an engine's start, an outage), so that the
 * cores stay busy meanwhile. Two with containers, as before: each file may start its own.
 */
const filesAtOnce = {
  unit: availableParallelism(),
  integration: 2 * availableParallelism(),
  stress: availableParallelism(),
  all: 2 * availableParallelism(),
  containers: 2,
};
const concurrency = Number(process.env.WINNOW_TEST_CONCURRENCY) || filesAtOnce[kind];
const containers = kind === 'containers' ? await startContainers() : undefined;
let elasticsearch;
if (!process.env.ELASTICSEARCH_URL && files.some((file) => readFileSync(file, 'utf8').includes('elasticsearchForTests'))) {
  const { startLocalElasticsearch } = await import(join(root, 'packages/search/dist/testing/index.js'));
  console.error('starting a local Elasticsearch node for the tests…');
  elasticsearch = await startLocalElasticsearch();
}
if (elasticsearch) process.env.ELASTICSEARCH_URL = elasticsearch.url; // the test files' processes inherit it
const status = await runFiles(longestFirst(files));
await elasticsearch?.stop();
await containers?.remove();
process.exit(status);

/**
 * Runs the files with Node's test runner, `concurrency` at a time, in the order given (the `node
 * --test` command sorts them by name), and records each file's time for the next run's order.
 */
async function runFiles(ordered) {
  const times = new Map();
  let status = 0;
  const stream = run({ files: ordered, concurrency });
  stream.on('test:fail', ({ todo }) => {
    if (!todo) status = 1; // as `node --test`: a failing todo test does not fail the run
  });
  // A file's time is the sum of its top-level tests' and suites' (their hooks included).
  for (const event of ['test:pass', 'test:fail']) {
    stream.on(event, ({ file, name, nesting, details }) => {
      if (nesting === 0 && file && name !== file) times.set(file, (times.get(file) ?? 0) + (details?.duration_ms ?? 0) / 1000);
    });
  }
  for await (const line of stream.compose(spec)) process.stdout.write(line);
  recordTimes(times);
  // The run cannot end before its longest file: the first place to look when the run is slow.
  const slowest = [...times].sort(([, a], [, b]) => b - a).slice(0, 5);
  console.log(`ℹ slowest files: ${slowest.map(([file, seconds]) => `${relative(root, file)} ${Math.round(seconds)} s`).join(', ')}`);
  return status;
}

/**
 * Longest first, so that no long file starts last and runs alone at the end: by the times of the
 * last run on this machine where known (TIMES_FILE), else by the times recorded in the repository
 * (RECORDED_TIMES_FILE), else guessed from the file's kind and size (the largest integration files
 * are the longest; a unit file takes a second or two).
 */
function longestFirst(list) {
  const known = { ...readTimes(RECORDED_TIMES_FILE), ...readTimes() };
  const bytesPerSecond = { containers: 200, integration: 200, stress: 2000, unit: 20000 };
  const expected = (file) => known[relative(root, file)] ?? statSync(file).size / bytesPerSecond[kindOf(file)];
  return [...list].sort((a, b) => expected(b) - expected(a));
}

function readTimes(file = TIMES_FILE) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return {};
  }
}

function recordTimes(times) {
  const all = readTimes();
  for (const [file, seconds] of times) all[relative(root, file)] = Math.round(seconds * 10) / 10;
  mkdirSync(dirname(TIMES_FILE), { recursive: true });
  // Written aside, then renamed: turbo runs several packages' tests at once, and a reader never sees half a file.
  const written = `${TIMES_FILE}.${process.pid}`;
  writeFileSync(written, `${JSON.stringify(all, null, 2)}\n`);
  renameSync(written, TIMES_FILE);
}

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

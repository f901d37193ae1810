#!/usr/bin/env node
// Runs compiled tests with Node's test runner, in one run so that the summary counts all of them.
// Usage: run-tests.mjs <unit|integration|stress|all> [package folder ...]   (default: every package)
// Tests are named by kind: `*.integration.test.ts` talk to real Redis, Postgres, Elasticsearch or
// Chromium; `*.stress.test.ts` are pathological inputs; the rest are unit tests. Build first.
// When the run includes tests that use Elasticsearch (elasticsearchForTests) and ELASTICSEARCH_URL
// is unset, one local node (infra/elasticsearch-local) serves the whole run, then stops.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const [kind = 'all', ...folders] = process.argv.slice(2);
const kinds = { unit: ['unit'], integration: ['integration'], stress: ['stress'], all: ['unit', 'integration', 'stress'] }[kind];
if (!kinds) {
  console.error(`unknown test kind "${kind}": unit, integration, stress or all`);
  process.exit(2);
}
const packages =
  folders.length > 0
    ? folders.map((folder) => resolve(folder))
    : ['packages', 'services'].flatMap((group) => readdirSync(join(root, group)).map((name) => join(root, group, name)));
const kindOf = (file) => (file.endsWith('.integration.test.js') ? 'integration' : file.endsWith('.stress.test.js') ? 'stress' : 'unit');
const files = packages.flatMap((folder) => {
  const dist = join(folder, 'dist');
  if (!existsSync(dist)) return [];
  return readdirSync(dist, { recursive: true })
    .map(String)
    .filter((file) => file.endsWith('.test.js') && kinds.includes(kindOf(file)))
    .map((file) => join(dist, file));
});
if (files.length === 0) {
  if (packages.some((folder) => existsSync(join(folder, 'dist')))) process.exit(0); // nothing of this kind here
  console.error('no compiled tests found: run `pnpm build` first');
  process.exit(1);
}

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
process.exit(status);

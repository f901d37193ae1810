#!/usr/bin/env node
// Runs every compiled test (`*.test.js` under packages/*/dist and services/*/dist) in one
// `node --test` run, so the summary at the end counts all of them. Build first (`pnpm build`).
// Without ELASTICSEARCH_URL it starts one real Elasticsearch node (infra/elasticsearch-local) for
// the whole run, hands its URL to the tests, and stops it afterwards.
import { spawn } from 'node:child_process';
import { readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const roots = ['packages', 'services'].filter((root) => existsSync(root));
const files = roots.flatMap((root) =>
  readdirSync(root).flatMap((name) => {
    const dist = join(root, name, 'dist');
    if (!existsSync(dist)) return [];
    return readdirSync(dist, { recursive: true })
      .map(String)
      .filter((file) => file.endsWith('.test.js'))
      .map((file) => join(dist, file));
  }),
);
if (files.length === 0) {
  console.error('no compiled tests found: run `pnpm build` first');
  process.exit(1);
}

const { startLocalElasticsearch } = await import('../packages/search/dist/testing/index.js');
let elasticsearch;
if (!process.env.ELASTICSEARCH_URL) {
  console.error('starting a local Elasticsearch node for the tests…');
  elasticsearch = await startLocalElasticsearch();
}
const env = { ...process.env, ELASTICSEARCH_URL: elasticsearch?.url ?? process.env.ELASTICSEARCH_URL };
const child = spawn(process.execPath, ['--test', '--test-reporter=spec', '--test-concurrency=2', ...process.argv.slice(2), ...files], { stdio: 'inherit', env });
const status = await new Promise((resolve) => child.once('exit', (code) => resolve(code ?? 1)));
await elasticsearch?.stop();
process.exit(status);

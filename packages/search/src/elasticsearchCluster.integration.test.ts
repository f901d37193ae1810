import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Client } from '@elastic/elasticsearch';
import { ElasticsearchIndex } from './elasticsearchIndex.js';
import { parseQuery } from './query.js';
import { documentIdFor, type IndexDocument } from './searchIndex.js';
import { startLocalElasticsearchCluster, type LocalElasticsearchCluster } from './testing/localElasticsearch.js';

const SHARDS = 3;
const alias = 'winnow-cluster-test';
const site = 'harbour';

/** Page `n`: its own exact phrase spans the end of one block and the start of the next. */
const page = (n: number): IndexDocument => ({
  docId: documentIdFor(site, `http://harbour.test/log/${n}`),
  pageId: n,
  site,
  url: `http://harbour.test/log/${n}`,
  title: `Log ${n}`,
  pageTitle: `Log ${n} | Harbour`,
  mainText: `The harbour log records entry ${n} at dawn.\nTide gauge ${n} read high water.`,
  templateVersion: 1,
  extractedAt: new Date('2026-11-01T00:00:00Z'),
});
const pages = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => page(from + i));

/** Longer than the health calls' `timeout: '300s'`, so the server answers before the client gives up. */
const HEALTH_WAIT_MS = 330_000;
let cluster: LocalElasticsearchCluster;
let client: Client;
let index: ElasticsearchIndex;
const phraseHits = async (n: number) =>
  (await index.search({ query: parseQuery(`"entry ${n} at dawn tide gauge ${n}"`), sites: [site], offset: 0, limit: 10 })).hits.map((hit) => hit.url);

before(async () => {
  cluster = await startLocalElasticsearchCluster({ nodes: 3 });
  client = new Client({ nodes: [...cluster.urls], requestTimeout: HEALTH_WAIT_MS });
  index = new ElasticsearchIndex({ url: cluster.urls, alias, shards: SHARDS, replicas: 1, retryForMs: 300_000, flushBytes: 20_000 });
  await index.ensureReady();
  await client.cluster.health({ index: alias, wait_for_status: 'green', wait_for_nodes: '3', timeout: '300s' });
});
after(async () => {
  await client?.close();
  await index?.close();
  await cluster?.stop();
});

test('every local node answers GET / and HEAD / as a stock node does: one cluster, its uuid and version', async () => {
  const answers = await Promise.all(
    cluster.urls.map(async (url) => {
      const one = new Client({ node: url });
      try {
        assert.equal(await one.ping(), true);
        return await one.info();
      } finally {
        await one.close();
      }
    }),
  );
  assert.deepEqual(
    answers.map((answer) => answer.name),
    cluster.nodes.map((node) => node.name),
  );
  assert.equal(new Set(answers.map((answer) => answer.cluster_uuid)).size, 1);
  assert.notEqual(answers[0]?.cluster_uuid, '_na_');
  for (const answer of answers) {
    assert.equal(answer.cluster_name, 'winnow-local');
    assert.match(answer.version.number, /^8\.\d+\.\d+$/);
    assert.match(answer.version.lucene_version, /^\d+\.\d+\.\d+$/);
    assert.equal(answer.tagline, 'You Know, for Search');
  }
});

test('the index has several shards and one replica each, spread over all three nodes', async () => {
  const shards = await client.cat.shards({ index: alias, format: 'json' });
  assert.equal(shards.length, SHARDS * 2);
  assert.equal(shards.filter((shard) => shard.prirep === 'p').length, SHARDS);
  assert.ok(shards.every((shard) => shard.state === 'STARTED'));
  assert.equal(new Set(shards.map((shard) => shard.node)).size, 3);
});

test('with the elected master stopped mid-indexing, indexing and exact-phrase search go on, and every document is there once it returns', async () => {
  const before = 600;
  const during = 600;
  // Writes run in batches while the node stops: the indexer's retries carry them over the election.
  await index.upsert(pages(0, before / 2));
  const masterName = (await client.cat.master({ format: 'json' }))[0]?.node;
  const master = cluster.nodes.find((node) => node.name === masterName);
  assert.ok(master, `the master ${masterName} is one of ours`);
  const writing = (async () => {
    for (let from = before / 2; from < before; from += 50) await index.upsert(pages(from, from + 50));
  })();
  await master.stop();
  await writing;

  const survivors = new Client({ nodes: cluster.urls.filter((url) => url !== master.url), requestTimeout: HEALTH_WAIT_MS });
  try {
    const health = await survivors.cluster.health({ index: alias, wait_for_nodes: '2', wait_for_status: 'yellow', timeout: '300s' });
    assert.equal(health.number_of_nodes, 2);
    assert.ok(['yellow', 'green'].includes(health.status), `health ${health.status} with a node down`);
    // Indexing goes on with the node down.
    await index.upsert(pages(before, before + during));
    await index.refresh();
    assert.equal(await index.count(site), before + during);
    for (const n of [0, before - 1, before + during - 1]) assert.deepEqual(await phraseHits(n), [`http://harbour.test/log/${n}`]);
    assert.deepEqual(await phraseHits(before + during), [], 'a phrase of no page matches nothing');
  } finally {
    await survivors.close();
  }

  await master.start();
  const health = await client.cluster.health({ index: alias, wait_for_nodes: '3', wait_for_status: 'green', timeout: '300s' });
  assert.equal(health.number_of_nodes, 3);
  assert.equal(health.status, 'green');
  await index.refresh();
  const indexed = await index.documentVersions();
  assert.equal(indexed.size, before + during);
  for (let n = 0; n < before + during; n++) assert.ok(indexed.has(n), `page ${n} is indexed`);
  assert.deepEqual(await phraseHits(before / 2), [`http://harbour.test/log/${before / 2}`]);
});

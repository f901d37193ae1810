import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** The launcher in infra/elasticsearch-local (it builds itself with Maven on first use). */
export const LAUNCHER = fileURLToPath(new URL('../../../../infra/elasticsearch-local/run.sh', import.meta.url));

export interface LocalElasticsearch {
  url: string;
  stop(): Promise<void>;
}

export interface LocalElasticsearchOptions {
  /** Keep the node's data here (so that a restart finds it). */
  home?: string;
  /** Listen on this HTTP port (so that a restart keeps the URL). */
  port?: number;
  /** The JVM's maximum heap (`-Xmx`); the launcher's default is 1 GB. */
  heap?: string;
  /** Join a cluster instead of forming a single-node one (`startLocalElasticsearchCluster`). */
  cluster?: { nodeName: string; transportPort: number; seedHosts: readonly string[]; initialMasterNodes: readonly string[] };
}

/**
 * Starts a real single-node Elasticsearch with the launcher and waits for its URL line. With
 * `WINNOW_TEST_CONTAINERS` set (`pnpm test:containers`), the node runs in a container instead.
 */
export async function startLocalElasticsearch(options: LocalElasticsearchOptions = {}): Promise<LocalElasticsearch> {
  if (process.env.WINNOW_TEST_CONTAINERS && !options.cluster) {
    const { startElasticsearchContainer } = await import('@winnow/containers');
    return startElasticsearchContainer({ ...(options.port ? { port: options.port } : {}), ...(options.home ? { dataDir: options.home } : {}) });
  }
  const { cluster } = options;
  const args = [
    ...(options.home ? ['--home', options.home] : []),
    ...(options.port ? ['--port', String(options.port)] : []),
    ...(cluster
      ? [
          ...['--node-name', cluster.nodeName, '--transport-port', String(cluster.transportPort)],
          ...['--seed-hosts', cluster.seedHosts.join(','), '--initial-master-nodes', cluster.initialMasterNodes.join(',')],
        ]
      : []),
  ];
  const env = { ...process.env, ...(options.heap ? { ES_JAVA_HEAP: options.heap } : {}) };
  const child = spawn('bash', [LAUNCHER, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
  const stderr: string[] = [];
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Elasticsearch did not start within 5 minutes: ${stderr.join('').slice(-2000)}`)), 300_000);
    createInterface({ input: child.stdout }).on('line', (line) => {
      const match = /^ELASTICSEARCH_URL=(\S+)$/.exec(line);
      if (match) {
        clearTimeout(timer);
        resolve(match[1] as string);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the Elasticsearch launcher exited with code ${code}: ${stderr.join('').slice(-2000)}`));
    });
  });
  return {
    url,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * The cluster a test uses: `ELASTICSEARCH_URL` when set (the test runner starts one for the whole
 * run), else a node of its own. Never a skip: without either, this starts one or fails.
 */
export async function elasticsearchForTests(): Promise<LocalElasticsearch> {
  const url = process.env.ELASTICSEARCH_URL;
  if (url) return { url, stop: async () => undefined };
  return startLocalElasticsearch();
}

/** One node of a local cluster: stopped and started again on the same ports and data, as an operator restarts one. */
export interface LocalElasticsearchNode {
  readonly name: string;
  readonly url: string;
  readonly running: boolean;
  stop(): Promise<void>;
  start(): Promise<void>;
}

export interface LocalElasticsearchCluster {
  /** Every node's HTTP URL, in node order (a client given all of them fails over between them). */
  readonly urls: readonly string[];
  readonly nodes: readonly LocalElasticsearchNode[];
  stop(): Promise<void>;
}

/**
 * Starts a real cluster of `nodes` master-eligible data nodes on 127.0.0.1 with the same launcher:
 * free HTTP and transport ports picked here, every node seeded with every transport address and
 * all of them voting in the first election (`cluster.initial_master_nodes`), each node's data in
 * its own folder under one temporary home, so that a stopped node rejoins with its shards. Resolves
 * once every node answers; the cluster then holds the nodes' shared state (health may still be
 * yellow while replicas are placed).
 */
export async function startLocalElasticsearchCluster(options: { nodes?: number; heap?: string } = {}): Promise<LocalElasticsearchCluster> {
  const { freePort } = await import('@winnow/containers');
  const count = options.nodes ?? 3;
  const home = await mkdtemp(join(tmpdir(), 'winnow-es-cluster-'));
  const names = Array.from({ length: count }, (_, i) => `winnow-node-${i + 1}`);
  const ports: { http: number; transport: number }[] = [];
  for (let i = 0; i < count; i++) ports.push({ http: await freePort(), transport: await freePort() });
  const seedHosts = ports.map((port) => `127.0.0.1:${port.transport}`);
  const nodes = names.map((name, i): LocalElasticsearchNode => {
    const port = ports[i] as { http: number; transport: number };
    let running: LocalElasticsearch | undefined;
    const nodeOptions: LocalElasticsearchOptions = {
      home: join(home, name),
      port: port.http,
      heap: options.heap ?? '384m',
      cluster: { nodeName: name, transportPort: port.transport, seedHosts, initialMasterNodes: names },
    };
    return {
      name,
      url: `http://127.0.0.1:${port.http}`,
      get running() {
        return running !== undefined;
      },
      start: async () => {
        running ??= await startLocalElasticsearch(nodeOptions);
      },
      stop: async () => {
        await running?.stop();
        running = undefined;
      },
    };
  });
  const stopAll = async () => {
    await Promise.all(nodes.map((node) => node.stop()));
    await rm(home, { recursive: true, force: true });
  };
  try {
    // Together: a node answers its health API only once a master is elected, which takes a majority.
    await Promise.all(nodes.map((node) => node.start()));
  } catch (error) {
    await stopAll();
    throw error;
  }
  return { urls: nodes.map((node) => node.url), nodes, stop: stopAll };
}

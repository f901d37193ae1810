import { type ChildProcess, execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '@winnow/containers/freePort';
import { Redis } from 'ioredis';
import { killServer, launchOnFreePort } from './redisServer.js';

export interface RedisClusterServer {
  /** One node's URL: a seed for `WINNOW_REDIS_MODE=cluster`. */
  url: string;
  /** Every master's `host:port`. */
  nodes: readonly string[];
  stop(): Promise<void>;
}

/**
 * A real Redis Cluster of `masters` Debian `redis-server`s in cluster mode on 127.0.0.1, no
 * replicas, nothing persisted: free client and cluster-bus ports picked here (the bus port is set
 * with `cluster-port`, since client port + 10000 may not exist), the 16384 slots split by
 * `redis-cli --cluster create`, and ready once every node reports `cluster_state:ok`. A node that
 * could not listen (a port taken since `freePort`) is started again on other ports.
 */
export async function startRedisCluster(masters = 3): Promise<RedisClusterServer> {
  const dir = await mkdtemp(join(tmpdir(), 'winnow-redis-cluster-'));
  const children: ChildProcess[] = [];
  const ports: number[] = [];
  const stop = async () => {
    await Promise.all(children.map(killServer));
    await rm(dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < masters; i++) {
      const node = await launchOnFreePort(async (port) => {
        const busPort = await freePort();
        return ['--dir', dir, '--cluster-enabled', 'yes', '--cluster-port', String(busPort), '--cluster-config-file', `nodes-${port}.conf`];
      });
      children.push(node.child);
      ports.push(node.port);
    }
    const nodes = ports.map((port) => `127.0.0.1:${port}`);
    await promisify(execFile)('redis-cli', ['--cluster', 'create', ...nodes, '--cluster-replicas', '0', '--cluster-yes']);
    for (const port of ports) await waitUntil(port, async (client) => (await client.cluster('INFO')).includes('cluster_state:ok'));
    return { url: `redis://${nodes[0]}`, nodes, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Asks the node on `port` until `ready` says yes (a node answers before the cluster agrees). */
async function waitUntil(port: number, ready: (client: Redis) => Promise<boolean>): Promise<void> {
  const client = new Redis(port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  client.on('error', () => undefined);
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        if (client.status !== 'ready') await client.connect();
        if (await ready(client)) return;
      } catch (error) {
        if (attempt > 600) throw error;
      }
      if (attempt > 600) throw new Error(`the Redis Cluster node on port ${port} did not become ready`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    client.disconnect();
  }
}

import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { freePort } from '@winnow/containers/freePort';

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
 * `redis-cli --cluster create`, and ready once every node reports `cluster_state:ok`.
 */
export async function startRedisCluster(masters = 3): Promise<RedisClusterServer> {
  const dir = await mkdtemp(join(tmpdir(), 'winnow-redis-cluster-'));
  const children: ChildProcess[] = [];
  const ports: number[] = [];
  const stop = async () => {
    await Promise.all(
      children.map(async (child) => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }),
    );
    await rm(dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < masters; i++) {
      const port = await freePort();
      const busPort = await freePort();
      ports.push(port);
      children.push(
        spawn(
          'redis-server',
          [
            ...['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
            ...['--cluster-enabled', 'yes', '--cluster-port', String(busPort), '--cluster-config-file', `nodes-${port}.conf`],
          ],
          { stdio: 'ignore' },
        ),
      );
    }
    for (const port of ports) await waitUntil(port, async (client) => (await client.ping()) === 'PONG');
    const nodes = ports.map((port) => `127.0.0.1:${port}`);
    await promisify(execFile)('redis-cli', ['--cluster', 'create', ...nodes, '--cluster-replicas', '0', '--cluster-yes']);
    for (const port of ports) await waitUntil(port, async (client) => (await client.cluster('INFO')).includes('cluster_state:ok'));
    return { url: `redis://${nodes[0]}`, nodes, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Asks the node on `port` until `ready` says yes (a node answers before it is listening, then before the cluster agrees). */
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

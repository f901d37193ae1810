import { type ChildProcess, spawn } from 'node:child_process';
import { freePort } from '@winnow/containers/freePort';
import { Redis } from 'ioredis';

export interface RedisServer {
  url: string;
  stop(): Promise<void>;
  /** Stops the server and starts an empty one on the same port. */
  restart(): Promise<void>;
}

/**
 * A real `redis-server` on 127.0.0.1 for tests that run several processes against one Redis
 * (the private Redis of the embedded default listens on a Unix socket only its process knows).
 * `stop()` kills it. Nothing is persisted: `restart()` brings back an empty server on the same
 * port, as a Redis without persistence comes back after a crash. With `WINNOW_TEST_CONTAINERS` set
 * (`pnpm test:containers`), the server runs in a container instead.
 */
export async function startRedisServer(): Promise<RedisServer> {
  if (process.env.WINNOW_TEST_CONTAINERS) return startRedisContainerServer(await freePort());
  let { port, child } = await launchOnFreePort();
  const stop = () => killServer(child);
  return {
    url: `redis://127.0.0.1:${port}`,
    stop,
    restart: async () => {
      await stop();
      child = await relaunch(port);
    },
  };
}

/**
 * Starts the server again on its port. Another process may hold the port for a moment (a client's
 * outgoing connection given it by the kernel while it was free), so a refused start is tried again
 * for up to 30 s: a test's clients only ever reconnect to this port.
 */
async function relaunch(port: number): Promise<ChildProcess> {
  const until = Date.now() + 30_000;
  for (;;) {
    try {
      return await launch(port);
    } catch (error) {
      if (Date.now() > until) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

async function startRedisContainerServer(port: number): Promise<RedisServer> {
  const { startRedisContainer } = await import('@winnow/containers');
  let container = await startRedisContainer({ port });
  return {
    url: container.url,
    stop: () => container.stop(),
    restart: async () => {
      await container.stop();
      container = await startRedisContainer({ port });
    },
  };
}

/**
 * Kills a server and waits until it has exited; nothing when it has already. Killed, as in a crash
 * (and as `docker stop -t 0` ends a container): a server told to shut down serves on until its
 * next cron tick, up to 100 ms, and a client reconnecting 50 ms after losing it saw it back for a
 * moment, so a test of one outage saw two. A killed process has a `signalCode`, not an `exitCode`.
 */
export async function killServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

/**
 * What a server is started with besides its port and address: nothing more for a lone server, a
 * cluster node's settings (which name its own ports and files) for a node of a cluster.
 */
export type ServerArguments = (port: number) => Promise<string[]> | string[];

/**
 * A server on a free port. A port is free when `freePort` answers, not necessarily a moment later:
 * test files run side by side, so a server that could not listen is started again on another one.
 */
export async function launchOnFreePort(more: ServerArguments = () => []): Promise<{ port: number; child: ChildProcess }> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      return { port, child: await launch(port, await more(port)) };
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}

/** Starts a server on `port` and waits until it answers (up to 30 s: a loaded machine starts processes slowly). */
async function launch(port: number, more: string[] = []): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...more], { stdio: 'ignore' });
  const until = Date.now() + 30_000;
  for (;;) {
    // Exited: it could not listen (another process took the port since `freePort`), and whatever answers there is not this server.
    if (child.exitCode !== null) throw new Error(`redis-server on port ${port} exited with code ${child.exitCode}`);
    const client = new Redis(port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.ping();
      return child;
    } catch (error) {
      if (Date.now() > until) {
        child.kill('SIGKILL');
        throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      client.disconnect();
    }
  }
}

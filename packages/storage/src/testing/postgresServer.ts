import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { freePort } from '@winnow/containers/freePort';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface PostgresServer {
  url: string;
  /** Stops the server (fast shutdown: clients are disconnected), as an outage would. */
  stop(): Promise<void>;
  /** Starts it again on the same port with the same data. */
  start(): Promise<void>;
  /** Stops it and deletes its data. */
  destroy(): Promise<void>;
}

/**
 * A PostgreSQL server of the test's own (initdb in a temporary directory, trust authentication on
 * 127.0.0.1, a free port), for tests that stop and restart Postgres mid-run without touching the
 * server other tests share. Needs Debian's postgresql package; run as root, the server runs as
 * the `postgres` user (Postgres refuses to run as root). With `WINNOW_TEST_CONTAINERS` set
 * (`pnpm test:containers`), each start is a container on the same port and data folder instead.
 */
export async function startPostgresServer(): Promise<PostgresServer> {
  if (process.env.WINNOW_TEST_CONTAINERS) return startPostgresContainerServer();
  const bin = postgresBin();
  const dir = await mkdtemp(join(tmpdir(), 'winnow-pg-'));
  await chmod(dir, 0o777);
  const data = join(dir, 'data');
  const port = await freePort();
  const asPostgres = (command: string, args: string[]) =>
    userInfo().uid === 0 ? run('runuser', ['-u', 'postgres', '--', join(bin, command), ...args]) : run(join(bin, command), args);
  await asPostgres('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
  const options = `-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories=${dir} -c fsync=off`;
  const start = async () => void (await asPostgres('pg_ctl', ['-D', data, '-o', options, '-w', '-t', '60', '-l', join(dir, 'log'), 'start']));
  const stop = async () => void (await asPostgres('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']));
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop,
    start,
    destroy: async () => {
      await stop().catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function startPostgresContainerServer(): Promise<PostgresServer> {
  const { startPostgresContainer } = await import('@winnow/containers');
  const dataDir = await mkdtemp(join(tmpdir(), 'winnow-pg-'));
  const port = await freePort();
  let container = await startPostgresContainer({ port, dataDir });
  return {
    url: container.url,
    stop: () => container.stop(),
    start: async () => void (container = await startPostgresContainer({ port, dataDir })),
    destroy: async () => {
      await container.stop().catch(() => undefined);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

function postgresBin(): string {
  const root = '/usr/lib/postgresql';
  const version = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a))[0] : undefined;
  if (!version) throw new Error('no PostgreSQL server binaries under /usr/lib/postgresql: apt-get install postgresql');
  return join(root, version, 'bin');
}

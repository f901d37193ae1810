import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { freePort, type RedisServer, startRedisServer } from '@winnow/queue/testing';
import { createScratchDatabase, type ScratchDatabase } from '@winnow/storage/testing';
import { CLI_MAIN, embeddedEnv } from './testing/embeddedCli.js';
import { listeningSockets } from './testing/listeningSockets.js';
import { serviceMain } from './testing/serviceProcesses.js';

/** Starts a process and waits until `ready` says it is up (or it exits). */
async function startProcess(args: string[], env: NodeJS.ProcessEnv, ready: (stderr: string) => boolean | Promise<boolean>): Promise<ChildProcess> {
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  // Bounded only against a hang: an embedded `winnow up` has taken over 90 s to start on a loaded machine.
  for (let i = 0; i < 3000; i++) {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode}: ${stderr}`);
    if (await ready(stderr)) return child;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`${args.join(' ')} did not start: ${stderr}`);
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

const apiAnswers = (port: number) => async () => (await fetch(`http://127.0.0.1:${port}/health`).catch(() => undefined))?.status === 200;

describe('nothing listens beyond the configured API address', () => {
  let scratch: ScratchDatabase;
  let redis: RedisServer;
  before(async () => {
    [scratch, redis] = await Promise.all([createScratchDatabase(), startRedisServer()]);
  });
  after(async () => {
    await Promise.all([redis?.stop(), scratch?.drop()]);
  });

  test('winnow up (the embedded default): the API address and nothing else, in the whole process tree', async () => {
    const port = await freePort();
    const env = await embeddedEnv('sockets', { WINNOW_API_PORT: String(port) });
    // `winnow is up` is written once the API and every worker have started: all they open at start is open.
    let said = '';
    const up = await startProcess([CLI_MAIN, 'up'], env, async (stderr) => {
      said = stderr;
      return stderr.includes('winnow is up:') && (await apiAnswers(port)());
    });
    try {
      assert.ok(said.includes(`console on http://127.0.0.1:${port}/console/`), said);
      assert.match(said, /\nno operate token \(WINNOW_API_TOKEN=operate:<token>\): the operator routes answer 401 and the console cannot sign in\n/);
      const sockets = listeningSockets(up.pid as number);
      assert.deepEqual(
        sockets.map((socket) => `${socket.protocol} ${socket.address}`),
        [`tcp 127.0.0.1:${port}`],
      );
    } finally {
      await stop(up);
    }
  });

  test('each service on its own (real Postgres and Redis): the API its address, the workers nothing', async () => {
    const port = await freePort();
    const env = {
      ...process.env,
      DATABASE_URL: scratch.url,
      REDIS_URL: redis.url,
      ELASTICSEARCH_URL: '',
      WINNOW_QUEUE_PREFIX: 'sockets',
      WINNOW_API_PORT: String(port),
      WINNOW_LOG_LEVEL: 'info',
    };
    for (const service of ['api', 'crawler', 'templater', 'extractor', 'indexer']) {
      // '<service> started' is logged once the service has started: all it opens at start is open.
      let said = '';
      const started = (stderr: string) => {
        said = stderr;
        return stderr.includes(`"msg":"${service} started`);
      };
      const child = await startProcess(
        [serviceMain(service)],
        env,
        service === 'api' ? async (stderr) => started(stderr) && (await apiAnswers(port)()) : started,
      );
      try {
        const sockets = listeningSockets(child.pid as number).map((socket) => `${socket.protocol} ${socket.address}`);
        assert.deepEqual(sockets, service === 'api' ? [`tcp 127.0.0.1:${port}`] : [], service);
        if (service === 'api')
          assert.match(said, /"level":40,.*"msg":"no operate token \(WINNOW_API_TOKEN=operate:<token>\)/, 'the API without a token says what it cannot do');
      } finally {
        await stop(child);
      }
    }
  });
});

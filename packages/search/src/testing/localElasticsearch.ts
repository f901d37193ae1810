import { spawn } from 'node:child_process';
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
}

/**
 * Starts a real single-node Elasticsearch with the launcher and waits for its URL line. With
 * `WINNOW_TEST_CONTAINERS` set (`pnpm test:containers`), the node runs in a container instead.
 */
export async function startLocalElasticsearch(options: LocalElasticsearchOptions = {}): Promise<LocalElasticsearch> {
  if (process.env.WINNOW_TEST_CONTAINERS) {
    const { startElasticsearchContainer } = await import('@winnow/containers');
    return startElasticsearchContainer({ ...(options.port ? { port: options.port } : {}), ...(options.home ? { dataDir: options.home } : {}) });
  }
  const args = [...(options.home ? ['--home', options.home] : []), ...(options.port ? ['--port', String(options.port)] : [])];
  const child = spawn('bash', [LAUNCHER, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
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

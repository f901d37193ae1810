import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** The launcher in infra/s3proxy-local (it builds itself with Maven on first use). */
export const S3PROXY_LAUNCHER = fileURLToPath(new URL('../../../../infra/s3proxy-local/run.sh', import.meta.url));

/** The credentials the launcher's server checks signatures with. */
export const S3PROXY_IDENTITY = 'local-identity';
export const S3PROXY_CREDENTIAL = 'local-credential';

export interface LocalS3Proxy {
  endpoint: string;
  port: number;
  /** Stops the server (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
}

export interface LocalS3ProxyOptions {
  /** Keep objects in this folder (S3Proxy's filesystem store), so that a restart finds them; default: in memory. */
  dir?: string;
  /** Listen on this port (so that a restart keeps the endpoint); default: one the system picks. */
  port?: number;
}

/** Starts a real S3-compatible server (S3Proxy) on 127.0.0.1 with the launcher and waits for its endpoint line. */
export async function startLocalS3Proxy(options: LocalS3ProxyOptions = {}): Promise<LocalS3Proxy> {
  const args = [...(options.dir ? ['--dir', options.dir] : []), ...(options.port ? ['--port', String(options.port)] : [])];
  const child = spawn('bash', [S3PROXY_LAUNCHER, ...args, '--identity', S3PROXY_IDENTITY, '--credential', S3PROXY_CREDENTIAL], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stderr: string[] = [];
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const endpoint = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`S3Proxy did not start within 5 minutes: ${stderr.join('').slice(-2000)}`)), 300_000);
    createInterface({ input: child.stdout }).on('line', (line) => {
      const match = /^S3_ENDPOINT=(\S+)$/.exec(line);
      if (match) {
        clearTimeout(timer);
        resolve(match[1] as string);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the S3Proxy launcher exited with code ${code}: ${stderr.join('').slice(-2000)}`));
    });
  });
  return {
    endpoint,
    port: Number(new URL(endpoint).port),
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The configuration that keeps bodies as WARC files in `bucket` of this server. */
export function objectStoreEnv(proxy: Pick<LocalS3Proxy, 'endpoint'>, bucket: string): Record<string, string> {
  return {
    WINNOW_S3_BUCKET: bucket,
    WINNOW_S3_ENDPOINT: proxy.endpoint,
    WINNOW_S3_ACCESS_KEY_ID: S3PROXY_IDENTITY,
    WINNOW_S3_SECRET_ACCESS_KEY: S3PROXY_CREDENTIAL,
  };
}

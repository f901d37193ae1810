import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/** The built `winnow` command (dist/main.js), for tests that run it as a user would. */
export const CLI_MAIN = fileURLToPath(new URL('../main.js', import.meta.url));

const execFileAsync = promisify(execFile);

/**
 * Runs the built CLI to its end. Rejects when it exits with a non-zero status, with `code`,
 * `stdout` and `stderr` on the error; output up to 64 MiB is kept (long listings and JSON).
 */
export function runCli(args: readonly string[], options: { env?: NodeJS.ProcessEnv; timeout?: number } = {}) {
  return execFileAsync(process.execPath, [CLI_MAIN, ...args], { maxBuffer: 64 * 1024 * 1024, ...options });
}

/** A PGlite data folder that does not exist yet, in a fresh temporary folder named `winnow-<name>-…`. */
export async function freshDataDir(name: string): Promise<string> {
  return join(await mkdtemp(join(tmpdir(), `winnow-${name}-`)), 'pglite');
}

/**
 * The environment of a CLI that runs embedded on a fresh PGlite data folder of its own: whatever
 * Postgres, Redis, Elasticsearch or API the shell running the tests points at is cleared, so the
 * test never touches it. `overrides` add to it (an API port, a token).
 */
export async function embeddedEnv(name: string, overrides: NodeJS.ProcessEnv = {}): Promise<NodeJS.ProcessEnv> {
  return {
    ...process.env,
    WINNOW_DATA_DIR: await freshDataDir(name),
    DATABASE_URL: '',
    REDIS_URL: '',
    ELASTICSEARCH_URL: '',
    WINNOW_API_URL: '',
    ...overrides,
  };
}

/** An embedded CLI on its own data folder: its environment, and `winnow(...args)` that runs it there. */
export interface EmbeddedCli {
  env: NodeJS.ProcessEnv;
  winnow: (...args: string[]) => ReturnType<typeof runCli>;
}

export async function embeddedCli(name: string, overrides: NodeJS.ProcessEnv = {}): Promise<EmbeddedCli> {
  const env = await embeddedEnv(name, overrides);
  return { env, winnow: (...args) => runCli(args, { env }) };
}

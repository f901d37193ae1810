import { type ChildProcess, spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

/** A service's built entry point (`services/<service>/dist/main.js`), as a deployment runs it. */
export const serviceMain = (service: string) => fileURLToPath(new URL(`../../../../services/${service}/dist/main.js`, import.meta.url));

/** A service running as a process of its own, with what it wrote to stderr (the first place to look when a test fails). */
export interface RunningService {
  name: string;
  child: ChildProcess;
  stderr: string[];
  /** Its exit code; -1 when a signal ended it. */
  exited: Promise<number | null>;
}

/** Starts `service` with `env`; `label` names it when several run (two extractors, say). */
export function startService(service: string, env: NodeJS.ProcessEnv, label = service): RunningService {
  const child = spawn(process.execPath, [serviceMain(service)], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  const stderr: string[] = [];
  child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? (signal ? -1 : null))));
  return { name: label, child, stderr, exited };
}

/**
 * Resolves with the service's exit code, or 'timeout' if it has not exited within `timeoutMs`;
 * the timer is cleared either way, so that it does not keep the test file's process alive.
 */
export async function exitWithin(service: RunningService, timeoutMs: number): Promise<number | null | 'timeout'> {
  const timer = new AbortController();
  try {
    return await Promise.race([service.exited, sleep(timeoutMs, 'timeout' as const, { signal: timer.signal })]);
  } finally {
    timer.abort();
  }
}

/**
 * Polls `probe` until it holds (errors count as "not yet": an engine may be down): the event a
 * verdict waits for, never a fixed time. `timeoutMs` only bounds a test that would otherwise hang.
 */
export async function until<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

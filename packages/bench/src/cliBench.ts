import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { quantile } from '@winnow/eval';

export interface CliBenchFlags {
  /** Timed runs of each command; the median is reported. */
  runs: number;
  /** Demo articles per demo site in the prepared data directory. */
  articles: number;
  json?: boolean;
}

const cliMain = fileURLToPath(new URL('../../cli/dist/main.js', import.meta.url));
const execFileAsync = promisify(execFile);

/** Each command's target, as a ratio to bare node's start (issue 34): a CLI people type and script all day answers at once. */
const TARGETS = { help: 3, status_embedded: 10, sites_list_embedded: 10, status_api: 3 } as const;
type Measured = keyof typeof TARGETS;

/**
 * `pnpm bench cli`: how long `winnow` takes to answer, in one run, against bare node's start
 * (`node -e 0`) on the same machine at the same time, so that only ratios are compared:
 * - `help`: `winnow --help`, which loads the command table alone;
 * - `status_embedded`, `sites_list_embedded`: one-shot commands on an embedded data directory that
 *   `winnow demo` filled (its sites and pages), opening PGlite (and no Redis: they run no workers);
 * - `status_api`: `winnow status` sent to a running `winnow up` on that directory (`WINNOW_API_URL`).
 * Each figure is the median wall time of `runs` processes, started one after the other in rounds
 * that run every command once (bare node again in the rounds beside `winnow up`).
 */
export async function benchCliCommand(flags: CliBenchFlags): Promise<void> {
  const note = (text: string) => process.stderr.write(`${text}\n`);
  const root = await mkdtemp(join(tmpdir(), 'winnow-bench-cli-'));
  let up: ChildProcess | undefined;
  try {
    const demoDir = join(root, 'demo');
    note(`preparing a data directory: winnow demo --articles ${flags.articles}…`);
    const token = `operate:${randomBytes(16).toString('hex')}`;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: '',
      REDIS_URL: '',
      ELASTICSEARCH_URL: '',
      WINNOW_API_URL: '',
      WINNOW_DATA_DIR: join(demoDir, 'pglite'),
      WINNOW_API_PORT: '0',
      WINNOW_API_TOKEN: token,
    };
    await execFileAsync(process.execPath, [cliMain, 'demo', '--articles', String(flags.articles), '--data-dir', demoDir], { env, maxBuffer: 64 << 20 });

    const timed = async (args: readonly string[], commandEnv: NodeJS.ProcessEnv): Promise<number> => {
      const started = performance.now();
      await execFileAsync(process.execPath, args, { env: commandEnv, maxBuffer: 64 << 20 });
      return performance.now() - started;
    };
    // Each round runs every command once, bare node first: a machine whose speed drifts during the
    // run (another process, the CPU's clock) moves the baseline with the commands it is compared to.
    const medians = async <Name extends string>(commands: Record<Name, { args: readonly string[]; env: NodeJS.ProcessEnv }>) => {
      const times = Object.fromEntries(Object.keys(commands).map((name) => [name, [] as number[]])) as Record<Name, number[]>;
      for (let run = 0; run < flags.runs; run++) {
        for (const name of Object.keys(commands) as Name[]) times[name].push(await timed(commands[name].args, commands[name].env));
      }
      return Object.fromEntries(
        Object.entries<number[]>(times).map(([name, list]) => [
          name,
          quantile(
            list.sort((a, b) => a - b),
            0.5,
          ),
        ]),
      ) as Record<Name, number>;
    };
    const embedded = await medians({
      bare: { args: ['-e', '0'], env },
      help: { args: [cliMain, '--help'], env },
      status_embedded: { args: [cliMain, 'status'], env },
      sites_list_embedded: { args: [cliMain, 'sites', 'list'], env },
    });
    up = spawn(process.execPath, [cliMain, 'up'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    const apiUrl = await announcedApi(up);
    await settled(apiUrl, token.slice(token.indexOf(':') + 1));
    // With `winnow up` running, bare node is timed again beside the command sent to its API.
    const throughApi = await medians({ bare: { args: ['-e', '0'], env }, status_api: { args: [cliMain, 'status'], env: { ...env, WINNOW_API_URL: apiUrl } } });
    const ms: Record<Measured, number> = { ...embedded, status_api: throughApi.status_api };
    const bareOf = (name: Measured) => (name === 'status_api' ? throughApi.bare : embedded.bare);
    const bareMs = embedded.bare;

    const report = {
      runs: flags.runs,
      bare_node_ms: round(bareMs),
      bare_node_beside_api_ms: round(throughApi.bare),
      ...Object.fromEntries(
        (Object.keys(TARGETS) as Measured[]).flatMap((name) => [
          [`${name}_ms`, round(ms[name])],
          [`${name}_ratio`, round(ms[name] / bareOf(name))],
          [`${name}_target`, TARGETS[name]],
        ]),
      ),
    };
    if (flags.json) return void process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    const rows = (Object.keys(TARGETS) as Measured[]).map((name) => {
      const ratio = ms[name] / bareOf(name);
      return `${name.padEnd(20)} ${ms[name].toFixed(0).padStart(7)} ms ${ratio.toFixed(1).padStart(6)}x  (target <= ${TARGETS[name]}x${ratio <= TARGETS[name] ? '' : ', missed'})`;
    });
    process.stdout.write(`${'node -e 0'.padEnd(20)} ${bareMs.toFixed(0).padStart(7)} ms    1.0x\n${rows.join('\n')}\n(median of ${flags.runs} runs each)\n`);
  } finally {
    if (up && up.exitCode === null) {
      up.kill('SIGTERM');
      await once(up, 'exit');
    }
    await rm(root, { recursive: true, force: true });
  }
}

/** The API URL `winnow up` names on stderr once everything is up; rejects if it exits first. */
async function announcedApi(up: ChildProcess): Promise<string> {
  let stderr = '';
  return new Promise((resolve, reject) => {
    up.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const url = stderr.match(/winnow is up: API on (http:\/\/\S+)/)?.[1];
      if (url) resolve(url);
    });
    up.once('exit', (code) => reject(new Error(`winnow up exited (code ${code}) before it was up: ${stderr.slice(-2000)}`)));
  });
}

/**
 * Waits until the API says the pipeline is idle: `winnow up`'s own start (its reconciler's first run,
 * the workers' start) shares the machine's cores and would be timed as the command's cost.
 */
async function settled(apiUrl: string, secret: string): Promise<void> {
  for (let attempt = 0; attempt < 120; attempt++) {
    const response = await fetch(`${apiUrl}/status/idle`, { headers: { authorization: `Bearer ${secret}` } });
    if (response.ok && ((await response.json()) as { idle: boolean }).idle) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`${apiUrl} did not say it was idle within 60 s`);
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

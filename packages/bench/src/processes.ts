import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Linux's USER_HZ: the unit of utime and stime in /proc/<pid>/stat. */
const CLOCK_TICKS_PER_SECOND = 100;

/** The CPU time (user and system, every thread) a process has used so far. */
export function cpuMs(child: ChildProcess): number {
  // Fields after the command name (which is in parentheses and may hold spaces): utime and stime are the 12th and 13th.
  const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}

/** Stops a child process (SIGTERM) and waits for it to exit. */
export async function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

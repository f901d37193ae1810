import { type HostActivity, hostActivity } from '@winnow/storage';
import type { Runtime } from './runtime.js';

/** A host as the console's hosts screen shows it: the frontier's view, and what this process's crawlers know of it. */
export interface HostView extends HostActivity {
  /** Its robots.txt as a crawler of this process last read it (`winnow_host_robots_state`); null when none did. */
  robots: string | null;
  /** Times it asked this process's crawlers to wait (429 or 503). */
  backoffs: number;
}

/**
 * The hosts of the sites' latest crawls: in flight, queued and waiting from the shared frontier,
 * robots.txt state, back-offs and the interval in force from this process's metrics (in `winnow up`
 * and the embedded pipeline, every crawler's; with crawlers elsewhere, `/metrics` of each has
 * theirs). The interval is the longer of the sites' `delayMs` and the pause a crawler here last kept
 * for the host (its robots.txt `Crawl-delay`, when longer).
 */
export async function hostsView(rt: Runtime): Promise<HostView[]> {
  const [activity, robots, backoffs, intervals] = await Promise.all([
    hostActivity(rt.db),
    rt.metrics.robots.get(),
    rt.metrics.hostBackoffs.get(),
    rt.metrics.hostInterval.get(),
  ]);
  const robotsOf = new Map(robots.values.filter((sample) => sample.value === 1).map((sample) => [String(sample.labels.host), String(sample.labels.state)]));
  const backoffsOf = new Map(backoffs.values.map((sample) => [String(sample.labels.host), sample.value]));
  const intervalOf = new Map(intervals.values.map((sample) => [String(sample.labels.host), Math.round(sample.value * 1000)]));
  return activity.map((host) => ({
    ...host,
    intervalMs: Math.max(host.intervalMs, intervalOf.get(host.host) ?? 0),
    robots: robotsOf.get(host.host) ?? null,
    backoffs: backoffsOf.get(host.host) ?? 0,
  }));
}

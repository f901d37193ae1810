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
 * robots.txt state and back-offs from this process's metrics (in `winnow up` and the embedded
 * pipeline, every crawler's; with crawlers elsewhere, `/metrics` of each has theirs).
 */
export async function hostsView(rt: Runtime): Promise<HostView[]> {
  const [activity, robots, backoffs] = await Promise.all([hostActivity(rt.db), rt.metrics.robots.get(), rt.metrics.hostBackoffs.get()]);
  const robotsOf = new Map(robots.values.filter((sample) => sample.value === 1).map((sample) => [String(sample.labels.host), String(sample.labels.state)]));
  const backoffsOf = new Map(backoffs.values.map((sample) => [String(sample.labels.host), sample.value]));
  return activity.map((host) => ({ ...host, robots: robotsOf.get(host.host) ?? null, backoffs: backoffsOf.get(host.host) ?? 0 }));
}

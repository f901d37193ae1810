import type { PipelineMetrics } from '@winnow/metrics';
import type { Logger } from 'pino';

/** What the line reads of a counter: its samples. */
interface Samples {
  get(): Promise<{ values: readonly { labels: Partial<Record<string, string | number>>; value: number }[] }>;
}

/** What a process did in one interval, by what the metrics counted: each group's counts by label value. */
export interface Activity {
  seconds: number;
  /** URLs visited, by outcome (`stored`, `refused`, `retry`…; not those deferred, which were not fetched). */
  fetched: Record<string, number>;
  /** Why URLs were not stored, by reason class (`http-404`, `not-html`, `timeout`…). */
  notStored: Record<string, number>;
  /** Pages extracted, by the self-check's verdict (`agreed`, `read-alone`, `template`, `no template`). */
  extracted: Record<string, number>;
  /** Index jobs, by outcome (`indexed`, `removed`, `duplicate`, `skipped`, `failed`). */
  index: Record<string, number>;
  /** Hosts that asked every crawler to wait (429, 503), with how many times. */
  backoffs: Record<string, number>;
  /** Job attempts that failed, by queue and whether they are tried again (`extract retried`, `index failed`). */
  jobFailures: Record<string, number>;
}

/** The lines a process logs about its own work between two intervals. */
export interface ActivityLog {
  /** Logs what happened since the last line, if anything did. */
  flush(): Promise<void>;
  /** Stops the timer after a last `flush`. */
  stop(): Promise<void>;
}

type Grouped = Omit<Activity, 'seconds'>;

/** Each group of the line: the counter it reads, and the label value it groups by (none: the sample is left out). */
function groups(metrics: PipelineMetrics): [keyof Grouped, Samples, (labels: Partial<Record<string, string | number>>) => string | undefined][] {
  return [
    // A URL deferred (its host not ready) was not visited: it is counted, not reported.
    ['fetched', metrics.fetches, (labels) => (labels.outcome === 'deferred' ? undefined : String(labels.outcome))],
    [
      'notStored',
      metrics.fetches,
      (labels) => (labels.reason === 'none' || labels.outcome === 'retry' || labels.outcome === 'deferred' ? undefined : String(labels.reason)),
    ],
    ['extracted', metrics.extractions, (labels) => (labels.verdict === 'none' ? 'no template' : String(labels.verdict))],
    ['index', metrics.indexWrites, (labels) => String(labels.outcome)],
    ['backoffs', metrics.hostBackoffs, (labels) => String(labels.host)],
    ['jobFailures', metrics.jobs, (labels) => (labels.outcome === 'completed' ? undefined : `${labels.queue} ${labels.outcome}`)],
  ];
}

/** `12 stored, 3 refused`: a group's counts, largest first. */
function counts(group: Record<string, number>): string {
  return Object.entries(group)
    .sort(([, a], [, b]) => b - a)
    .map(([name, count]) => `${count} ${name}`)
    .join(', ');
}

const sum = (group: Record<string, number>) => Object.values(group).reduce((total, count) => total + count, 0);

/** The line's message: what a person reads first; the same figures are fields of the line for machines. */
export function describeActivity(activity: Activity): string {
  const parts: string[] = [];
  if (sum(activity.fetched) > 0) parts.push(`visited ${sum(activity.fetched)} URLs (${counts(activity.fetched)})`);
  if (sum(activity.notStored) > 0) parts.push(`not stored: ${counts(activity.notStored)}`);
  if (sum(activity.extracted) > 0) parts.push(`extracted ${sum(activity.extracted)} pages (${counts(activity.extracted)})`);
  if (sum(activity.index) > 0) parts.push(`index jobs: ${counts(activity.index)}`);
  if (sum(activity.backoffs) > 0) parts.push(`hosts backing off: ${counts(activity.backoffs)}`);
  if (sum(activity.jobFailures) > 0) parts.push(`job attempts failed: ${counts(activity.jobFailures)}`);
  return `in the last ${Math.round(activity.seconds)} s: ${parts.join('; ')}`;
}

/**
 * Logs, every `intervalMs`, one line of what this process did since the last one, read from its
 * metrics (the counters are the one record of the work; this is their difference): URLs visited
 * by outcome and why the others were not stored, pages extracted by the self-check's verdict,
 * index jobs, back-offs and failed job attempts. An interval in which nothing happened logs
 * nothing, so an idle pipeline is quiet and a busy one writes one line a minute, not one per page.
 */
export function startActivityLog(metrics: PipelineMetrics, log: Logger, intervalMs: number): ActivityLog {
  const seen = new Map<string, number>();
  let since = performance.now();
  let flushing: Promise<void> = Promise.resolve();
  const read = async (): Promise<Grouped> => {
    const grouped: Grouped = { fetched: {}, notStored: {}, extracted: {}, index: {}, backoffs: {}, jobFailures: {} };
    for (const [group, counter, key] of groups(metrics)) {
      for (const { labels, value } of (await counter.get()).values) {
        const id = `${group} ${JSON.stringify(labels)}`;
        const grown = value - (seen.get(id) ?? 0);
        seen.set(id, value);
        const name = key(labels);
        if (grown > 0 && name !== undefined) grouped[group][name] = (grouped[group][name] ?? 0) + grown;
      }
    }
    return grouped;
  };
  const flush = (): Promise<void> => {
    flushing = flushing.then(async () => {
      const grouped = await read();
      const now = performance.now();
      const activity: Activity = { seconds: (now - since) / 1000, ...grouped };
      since = now;
      if (Object.values(grouped).every((group) => sum(group) === 0)) return;
      log.info({ activity }, describeActivity(activity));
    });
    return flushing;
  };
  const timer = setInterval(() => void flush().catch((error: unknown) => log.warn({ err: error }, 'could not log the activity')), intervalMs);
  timer.unref();
  return {
    flush,
    stop: async () => {
      clearInterval(timer);
      await flush();
    },
  };
}

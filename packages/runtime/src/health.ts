import type { Runtime } from './runtime.js';

export interface Readiness {
  ready: boolean;
  /** `ok` or `failed` per engine; the reasons (host names, addresses) go to the log, not to whoever asked. */
  checks: Record<'database' | 'redis' | 'search', 'ok' | 'failed'>;
}

/** Whether the database, Redis and the search index each answer within 2 s: what `/ready` reports, in the API and in every worker. */
export async function readiness(rt: Runtime): Promise<Readiness> {
  const check = async (name: keyof Readiness['checks'], probe: () => Promise<unknown>): Promise<'ok' | 'failed'> => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error('no answer within 2 s')), 2000);
    });
    try {
      await Promise.race([probe(), timeout]);
      return 'ok';
    } catch (error) {
      rt.log.warn({ check: name, err: error }, 'readiness check failed');
      return 'failed';
    } finally {
      clearTimeout(timer);
    }
  };
  const checks = {
    database: await check('database', () => rt.db.query('SELECT 1')),
    redis: await check('redis', () => rt.queues.queue('crawl').getJobCounts('waiting')),
    search: await check('search', () => rt.search.count()),
  };
  return { ready: Object.values(checks).every((value) => value === 'ok'), checks };
}

import { ApiClient } from './apiClient.js';
import { loadApiEnv } from '@winnow/config/apiEnv';
import type { Operator } from './operatorContract.js';

export type { Operator } from './operatorContract.js';

/** How often a crawl followed through the API is polled: each poll reads the whole status. */
const REMOTE_POLL_MS = 1000;

/** A pipeline whose workers run elsewhere, reached through its HTTP API. */
export function remoteOperator(client: ApiClient): Operator {
  return {
    runsWorkersHere: false,
    addSite: (input) => client.addSite(input),
    updateSite: (name, patch) => client.updateSite(name, patch),
    listSites: () => client.listSites(),
    removeSite: (name) => client.removeSite(name),
    replaceSite: (name, config) => client.replaceSite(name, config),
    startCrawl: (name) => client.startCrawl(name),
    unfinishedCrawl: async () => undefined,
    stopCrawl: (name) => client.stopCrawl(name),
    crawlLog: (name, params) => client.crawlLog(name, params),
    sitePages: (name, params) => client.sitePages(name, params),
    page: (url, site) => client.page(url, site),
    explainPage: (url, site) => client.explainPage(url, site),
    requestTemplates: (name) => client.requestTemplates(name),
    templateJob: (name, id) => client.templateJob(name, id),
    listTemplates: (site) => client.listTemplates(site),
    templateVersion: (site, params) => client.templateVersion(site, params),
    templateDiff: (site, params) => client.templateDiff(site, params),
    templateHealth: (site, params) => client.templateHealth(site, params),
    search: (params) => client.search(params),
    exportSite: (name, format) => client.exportSite(name, format),
    status: () => client.status(),
    follow: async (sites) =>
      (await import('./progress.js')).followProgress(
        {
          isIdle: () => client.isIdle(),
          progress: async (followed) => {
            const counted = (await client.status()).sites.filter((site) => !followed || followed.includes(site.site));
            const sum = (stage: 'stored' | 'extracted' | 'indexed' | 'duplicates') => counted.reduce((total, site) => total + site[stage], 0);
            return { stored: sum('stored'), extracted: sum('extracted'), indexed: sum('indexed'), duplicates: sum('duplicates') };
          },
        },
        sites,
        REMOTE_POLL_MS,
      ),
  };
}

export interface OperatorOptions {
  /**
   * The command may follow the pipeline (`follow`), which runs the workers in this process when
   * they run nowhere else: the embedded database is then maintained as a server's, and a private
   * Redis holds the queues. The other commands open the database for a moment and end, without
   * that maintenance and without a Redis (their queues are reported idle: `pipelineStatus`).
   */
  follows?: boolean;
}

/**
 * Runs an operator command: through the API at `WINNOW_API_URL` when it is set, else on the
 * pipeline opened here (closed afterwards). When the embedded database is held by another
 * process (such as `winnow up`), the error says how to use that process's API instead (the address
 * that process noted), or, when it noted none, that it serves none and how to get the database back.
 */
export async function withOperator<T>(work: (operator: Operator) => Promise<T>, options: OperatorOptions = {}): Promise<T> {
  // The API's settings alone: a command sent to an API loads neither the rest of the configuration nor the pipeline.
  const env = loadApiEnv();
  if (env.WINNOW_API_URL) return work(remoteOperator(new ApiClient(env.WINNOW_API_URL, env.WINNOW_API_TOKEN)));
  // Without DATABASE_URL, the embedded database's thread starts before anything else loads: its
  // start is most of a one-shot command's (the configuration still decides what it opens).
  if (!process.env.DATABASE_URL) (await import('@winnow/storage/db')).prestartEmbeddedDatabase(options.follows === true);
  // Loaded only here: the pipeline's modules are no business of a command sent to an API.
  const [{ withRuntime }, { EmbeddedDatabaseBusyError }] = await Promise.all([import('./pipeline.js'), import('@winnow/runtime/open')]);
  // The operations (half the workspace) load while the embedded database starts in a thread of its
  // own, once that thread is started (`loadWhileOpening`).
  let operations: Promise<typeof import('./localOperator.js')> | undefined;
  const loadOperations = () => {
    operations ??= import('./localOperator.js');
    return operations;
  };
  try {
    return await withRuntime(
      async (rt) => work((await loadOperations()).localOperator(rt)),
      {},
      {
        runsWorkers: options.follows === true,
        loadWhileOpening: loadOperations,
      },
    );
  } catch (error) {
    if (!(error instanceof EmbeddedDatabaseBusyError)) throw error;
    if (error.apiUrl === undefined) {
      // A holder that noted no API serves none (a command such as `winnow crawl`), or has not started it yet.
      throw new EmbeddedDatabaseBusyError(
        `${error.message}; it serves no API (a command such as \`winnow crawl\`, or a \`winnow up\` still starting): wait for it to end, or interrupt it (Ctrl-C): the next \`winnow crawl <site>\` resumes a crawl it leaves unfinished`,
      );
    }
    throw new EmbeddedDatabaseBusyError(
      `${error.message}; to use its API from this command, set WINNOW_API_URL=${error.apiUrl} (and WINNOW_API_TOKEN to one of its operate tokens)`,
      error.apiUrl,
    );
  }
}

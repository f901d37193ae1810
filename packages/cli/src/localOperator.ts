import type { Runtime } from '@winnow/runtime';
// The operations of the commands run most (status, sites, crawls, search); the rest of the runtime
// (pages, templates, explanations, exports: the extraction core, diff, CSV) loads when asked for.
import {
  addSite,
  crawlLog,
  listSites,
  openCrawl,
  pipelineStatus,
  removeSite,
  replaceSite,
  search,
  startCrawl,
  stopCrawl,
  updateSite,
} from '@winnow/runtime/operations';
import type { Operator } from './operatorContract.js';
import { closeAll, followPipeline, startWorkers } from './pipeline.js';

const runtime = () => import('@winnow/runtime');

/** The pipeline opened in this process (the operator of a command with no `WINNOW_API_URL`). */
export function localOperator(rt: Runtime): Operator {
  return {
    runsWorkersHere: rt.privateRedis,
    addSite: (input) => addSite(rt, input),
    updateSite: (name, patch) => updateSite(rt, name, patch),
    listSites: () => listSites(rt.db),
    removeSite: (name) => removeSite(rt, name),
    replaceSite: (name, config) => replaceSite(rt, name, config),
    startCrawl: (name) => startCrawl(rt, name),
    unfinishedCrawl: async (name) => (rt.privateRedis ? openCrawl(rt, name) : undefined),
    stopCrawl: (name) => stopCrawl(rt, name),
    crawlLog: (name, params) => crawlLog(rt, name, params),
    sitePages: async (name, params) => (await runtime()).sitePages(rt, name, params),
    page: async (url, site) => (await runtime()).pageExtraction(rt, { url, site }),
    explainPage: async (url, site) => (await runtime()).pageExplanation(rt, { url, site }),
    requestTemplates: async (name) => (await (await runtime()).requestTemplates(rt, name)).job,
    templateJob: async (name, id) => (await runtime()).templateJob(rt, name, id),
    listTemplates: async (site) => (await runtime()).siteTemplates(rt, site),
    templateVersion: async (site, params) => (await runtime()).templateVersion(rt, site, params),
    templateDiff: async (site, params) => (await runtime()).templateDiff(rt, site, params),
    templateHealth: async (site, params) => (await runtime()).templateHealthHistory(rt, site, params),
    search: (params) => search(rt, params),
    exportSite: async (name, format) => (await (await runtime()).exportSite(rt, name, format)).chunks,
    status: () => pipelineStatus(rt),
    follow: async (sites) => {
      const services = rt.privateRedis ? await startWorkers(rt) : [];
      try {
        await followPipeline(rt, sites);
      } finally {
        await closeAll(services);
      }
    },
  };
}

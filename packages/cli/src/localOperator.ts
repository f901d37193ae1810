import {
  addSite,
  crawlLog,
  exportSite,
  listSites,
  openCrawl,
  pageExtraction,
  pageExplanation,
  pipelineStatus,
  removeSite,
  replaceSite,
  requestTemplates,
  search,
  sitePages,
  siteTemplates,
  templateDiff,
  templateHealthHistory,
  templateJob,
  templateVersion,
  startCrawl,
  stopCrawl,
  updateSite,
  type Runtime,
} from '@winnow/runtime';
import type { Operator } from './operatorContract.js';
import { closeAll, followPipeline, startWorkers } from './pipeline.js';

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
    sitePages: (name, params) => sitePages(rt, name, params),
    page: (url, site) => pageExtraction(rt, { url, site }),
    explainPage: (url, site) => pageExplanation(rt, { url, site }),
    requestTemplates: async (name) => (await requestTemplates(rt, name)).job,
    templateJob: (name, id) => templateJob(rt, name, id),
    listTemplates: (site) => siteTemplates(rt, site),
    templateVersion: (site, params) => templateVersion(rt, site, params),
    templateDiff: (site, params) => templateDiff(rt, site, params),
    templateHealth: (site, params) => templateHealthHistory(rt, site, params),
    search: (params) => search(rt, params),
    exportSite: async (name, format) => (await exportSite(rt, name, format)).chunks,
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

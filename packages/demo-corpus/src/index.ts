export { ROBOTS_DISALLOWED_PATH, serveDemoWeb, type DemoWeb, type ServedDemoSite } from './server.js';
export { closeServer, listenOnLoopback } from './loopback.js';
export { articlePath, DEMO_SITE_NAMES, demoSite, listingPath, type DemoPage, type DemoSite, type DemoSiteOptions } from './site.js';
export { seededRandom } from './text.js';

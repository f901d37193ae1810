export { articlePath, DEMO_SITE_NAMES, demoSite, listingPath, type DemoPage, type DemoSite, type DemoSiteOptions } from './site.js';

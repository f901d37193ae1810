export { ConfigError, ENV_NAMES, ENV_SCHEMA, loadEnv, type Env } from './env.js';
export { allowedGlobs, parseSiteConfig, SITE_CONFIG_SCHEMA, SITE_NAME, SiteConfigError, type SiteConfig, type SiteConfigInput } from './site.js';

export { refusedAddress, refusedHost } from './addresses.js';
export { type ApiToken, ConfigError, DEFAULT_USER_AGENT, ENV_NAMES, ENV_SCHEMA, type Env, loadEnv, MIN_TOKEN_LENGTH, type TokenScope } from './env.js';
export {
  allowedGlobs,
  MIN_SCHEDULE_MS,
  parseSiteConfig,
  readStoredSiteConfig,
  siteOrigins,
  SITE_CONFIG_SCHEMA,
  siteConfigJsonSchema,
  SITE_NAME,
  SiteConfigError,
  type SiteConfig,
  type SiteConfigInput,
} from './site.js';
export { UrlGlob, urlGlob } from './globs.js';
export { EXPORT_FORMATS, type ExportFormat, MAX_PAGE_SIZE } from './paging.js';
export { SITE_DEFAULTS } from './siteDefaults.js';
export { type ErrorCode, failureReason, WinnowError } from './errors.js';

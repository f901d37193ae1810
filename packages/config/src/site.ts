import { braceExpand, escape as escapeGlob } from 'minimatch';
import { WinnowError } from './errors.js';
import { globProblem } from './globs.js';
import { z } from 'zod';
import { refusedHost } from './addresses.js';
import { SITE_DEFAULTS } from './siteDefaults.js';

const httpUrl = z
  .string()
  .trim()
  .refine((text) => URL.canParse(text) && ['http:', 'https:'].includes(new URL(text).protocol), { message: 'must be an absolute http(s) URL' })
  // The crawler never sends credentials, and a seed's are shown wherever the site's configuration is.
  .refine((text) => !URL.canParse(text) || (new URL(text).username === '' && new URL(text).password === ''), {
    message: 'must not hold a user name or password',
  });

/** A site name is used in URLs, queue job ids and index filters: keep it a slug. */
export const SITE_NAME = z
  .string()
  .trim()
  .regex(/^[a-z0-9][a-z0-9-]{0,62}$/, { message: 'must be 1-63 lowercase letters, digits or hyphens, starting with a letter or digit' });

/** A schedule's period in milliseconds, up to a year; 0 turns it off (its shortest other period: `MIN_SCHEDULE_MS`). */
function schedule(defaultMs: number) {
  return z
    .number()
    .int()
    .min(0)
    .max(366 * 24 * 3600_000)
    .default(defaultMs);
}

/**
 * What an operator configures per site. `allow` holds URL globs (Crawlee's `enqueueLinks`
 * syntax); when empty, every URL under a seed's origin is allowed. A glob whose braces expand to
 * many patterns, or with many wildcards, is refused (see `UrlGlob`): it is tried on every link.
 */
const SITE_SETTINGS = z.object({
  name: SITE_NAME,
  // Missing or empty, the same: a site is crawled from its seeds.
  seeds: z
    .array(httpUrl, { error: (issue) => (issue.input === undefined ? 'needs at least one seed URL' : undefined) })
    .min(1, { message: 'needs at least one seed URL' })
    .max(1000),
  allow: z
    .array(z.string().trim().min(1))
    .max(100)
    .default([...SITE_DEFAULTS.allow]),
  maxPages: z.number().int().min(1).max(1_000_000).default(SITE_DEFAULTS.maxPages),
  maxDepth: z.number().int().min(0).max(100).default(SITE_DEFAULTS.maxDepth),
  /** Requests to one host of the site in flight at once, across every crawler process. */
  concurrency: z.number().int().min(1).max(64).default(SITE_DEFAULTS.concurrency),
  /** Least time between the starts of two requests to one host, in milliseconds; robots.txt's `Crawl-delay` can raise it. */
  delayMs: z.number().int().min(0).max(60_000).default(SITE_DEFAULTS.delayMs),
  /** `browser` renders pages in Chromium (JavaScript-built sites); `http` fetches HTML. */
  render: z.enum(['http', 'browser']).default(SITE_DEFAULTS.render),
  /** Pages a page-type cluster needs before it gets a template. */
  minTemplatePages: z.number().int().min(2).max(1000).default(SITE_DEFAULTS.minTemplatePages),
  /** Re-run template preparation this often (milliseconds); 0 turns the schedule off. */
  templateEveryMs: schedule(SITE_DEFAULTS.templateEveryMs),
  /**
   * The site is on a private network (loopback, RFC 1918, RFC 4193, link-local, CGNAT): the
   * crawler may connect there. Off by default, so that neither a seed nor a link or redirect can
   * make the crawler reach the machine's own services or its network's. On a `render: browser`
   * site, what the page loads itself (scripts, frames, fetches, and their redirects) may reach
   * private addresses only on the seeds' origins.
   */
  allowPrivateAddresses: z.boolean().default(SITE_DEFAULTS.allowPrivateAddresses),
  /** Also start from the sitemaps robots.txt names and from `/sitemap.xml` of each seed's origin. */
  sitemaps: z.boolean().default(SITE_DEFAULTS.sitemaps),
  /**
   * Sitemap files a crawl fetches at most (those robots.txt names, `/sitemap.xml`, those an index
   * lists): a site's sitemaps cannot grow a crawl's frontier without end. 1,000 files of 50,000
   * URLs each name far more pages than a crawl's `maxPages` may admit.
   */
  maxSitemaps: z.number().int().min(1).max(100_000).default(SITE_DEFAULTS.maxSitemaps),
  /**
   * Crawl the site again this often (milliseconds; 0: only on request). Every crawl starts from
   * the seeds under the current settings; pages the site has are fetched with conditional
   * requests: unchanged pages cost a 304 (their links still followed), changed ones are extracted
   * again, 404/410 remove a page from the index.
   */
  recrawlEveryMs: schedule(SITE_DEFAULTS.recrawlEveryMs),
  /** Pages of one URL pattern (digits and slugs generalised) a crawl admits at most, a guard against calendar-like traps; 0: no cap. */
  maxPagesPerPattern: z.number().int().min(0).max(1_000_000).default(SITE_DEFAULTS.maxPagesPerPattern),
});

/**
 * A schedule runs at most once a second: BullMQ's job schedulers take a shorter period without
 * complaint and then run their next job over an hour late (1 ms and 100 ms were tried).
 */
export const MIN_SCHEDULE_MS = 1000;

/**
 * The rules beyond each setting's type, checked on every configuration read or written, so that a
 * stored one an earlier version accepted is read with the problem named (`readStoredSiteConfig`):
 * seeds and globs the crawler would refuse, schedules shorter than `MIN_SCHEDULE_MS`.
 */
function checkRules(site: z.infer<typeof SITE_SETTINGS>, context: z.RefinementCtx): void {
  site.seeds.forEach((seed, index) => {
    const refused = unstorable(seed) ?? (URL.canParse(seed) && refusedHost(new URL(seed).hostname, site.allowPrivateAddresses));
    if (refused) context.addIssue({ code: 'custom', path: ['seeds', index], message: `refused: ${refused}` });
  });
  site.allow.forEach((glob, index) => {
    const problem = unstorable(glob) ?? globProblem(glob) ?? wholeUrlProblem(glob) ?? foreignUrlProblem(glob, site.seeds);
    if (problem) context.addIssue({ code: 'custom', path: ['allow', index], message: `glob "${glob}" refused: ${problem}` });
  });
  for (const schedule of ['templateEveryMs', 'recrawlEveryMs'] as const) {
    const every = site[schedule];
    if (every > 0 && every < MIN_SCHEDULE_MS)
      context.addIssue({ code: 'custom', path: [schedule], message: `must be 0 (off) or at least ${MIN_SCHEDULE_MS} ms` });
  }
}

/** An unpaired UTF-16 surrogate: a JSON string may hold one (`"\\ud800"`), but it is no character. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Why a seed or a glob cannot be stored as text (Postgres refuses a NUL in text and JSON, and an
 * unpaired surrogate is no character: PGlite refuses it, `pg` would store U+FFFD), or null. A URL
 * never holds either: the URL parser percent-encodes them.
 */
function unstorable(text: string): string | null {
  if (text.includes('\u0000')) return 'it holds a NUL character (percent-encode it as %00)';
  if (LONE_SURROGATE.test(text)) return 'it holds an unpaired surrogate, which is no character';
  return null;
}

/** The settings as accepted when written: unknown keys refused, and `checkRules` kept. */
export const SITE_CONFIG_SCHEMA = SITE_SETTINGS.strict().superRefine(checkRules);

/** The settings as read back: a key an earlier version wrote and this one no longer has is dropped. */
const STORED_SITE_CONFIG = SITE_SETTINGS.superRefine(checkRules);

/**
 * Globs are matched against whole URLs: one written as a path (`/articles/**`) or a host without
 * a scheme matches nothing, and a recrawl under it would take every stored page but the seeds out
 * of the index. Such a glob does not start with a scheme (`https://`, `http{,s}://`).
 */
function wholeUrlProblem(glob: string): string | null {
  if (/^[a-z*?{[][a-z0-9+.*?{},[\]-]*:\/\//i.test(glob)) return null;
  return `globs match whole URLs, scheme and host included (e.g. "https://example.com${glob.startsWith('/') ? glob : '/articles/**'}")`;
}

/** Schemes a glob may name, as written once its braces are expanded. */
const HTTP_SCHEMES = new Set(['http', 'https', 'http?', 'https?', 'http*', '*']);
/** A wildcard that stands for subdomains only: `*.` or `**.` before a literal domain. */
const SUBDOMAIN_WILDCARD = /^\*{1,2}\./;
const GLOB_MAGIC = /[*?[\]{}()!+@]/;

/**
 * A site's globs stay on its seeds' hosts: every pattern its braces expand to names `http` or
 * `https` and a seed's host (port included) or a subdomain of it, or stands for subdomains
 * (`https://*.example.com/**` on a site seeded at `example.com` or `www.example.com`). Otherwise one line of configuration would
 * let a crawl read `file:///**`, or wander off to any host (`http://**`) or another site's.
 */
function foreignUrlProblem(glob: string, seeds: string[]): string | null {
  const seedHosts = seeds.filter((seed) => URL.canParse(seed)).map((seed) => new URL(seed).host);
  for (const pattern of braceExpand(glob)) {
    const [, scheme = '', rawHost = ''] = /^([^:/]*):\/\/([^/]*)/.exec(pattern) ?? [];
    if (!HTTP_SCHEMES.has(scheme.toLowerCase())) return `only http and https URLs are crawled, not "${scheme}:" ones`;
    const host = rawHost.replace(/\\(.)/g, '$1').toLowerCase();
    const subdomainsOf = SUBDOMAIN_WILDCARD.test(host) ? host.replace(SUBDOMAIN_WILDCARD, '') : null;
    const own = seedHosts.some((seedHost) =>
      subdomainsOf === null
        ? seedHost === host || host.endsWith(`.${seedHost}`)
        : subdomainsOf.includes('.') && !GLOB_MAGIC.test(subdomainsOf) && (seedHost === subdomainsOf || seedHost.endsWith(`.${subdomainsOf}`)),
    );
    if (!own)
      return `its host "${rawHost}" is not a seed's host (${[...new Set(seedHosts)].join(', ')}) nor its subdomains: a site's globs stay on its own hosts`;
  }
  return null;
}

export type SiteConfig = z.infer<typeof SITE_CONFIG_SCHEMA>;
export type SiteConfigInput = z.input<typeof SITE_CONFIG_SCHEMA>;

export class SiteConfigError extends WinnowError {
  override readonly name = 'SiteConfigError';
  constructor(message: string) {
    super('invalid-input', message);
  }
}

/** Validates a site configuration from any boundary where one is written (CLI flags, API body). */
export function parseSiteConfig(input: unknown): SiteConfig {
  const parsed = SITE_CONFIG_SCHEMA.safeParse(input);
  if (!parsed.success) throw new SiteConfigError(problemsOf(parsed.error));
  return parsed.data;
}

/**
 * A configuration stored by an earlier version, read back. A setting this version refuses
 * (`checkRules`: a glob written as a path, a schedule of 100 ms) must not hide the site: it is read without those rules and its
 * `problem` says what to fix, so that it can still be listed, shown and changed (`winnow sites
 * update`, `PATCH`), while its crawls refuse to start. A setting this version no longer has is
 * dropped. Only a row that is not a site's settings at all (no seeds, a value of the wrong type)
 * throws.
 */
export function readStoredSiteConfig(input: unknown): { config: SiteConfig; problem: string | null } {
  const parsed = STORED_SITE_CONFIG.safeParse(input);
  if (parsed.success) return { config: parsed.data, problem: null };
  const settings = SITE_SETTINGS.safeParse(input);
  if (!settings.success) throw new SiteConfigError(problemsOf(parsed.error));
  return { config: settings.data, problem: problemsOf(parsed.error) };
}

function problemsOf(error: z.ZodError): string {
  return `invalid site configuration: ${error.issues.map((issue) => `${issue.path.join('.') || 'site'}: ${issue.message}`).join('; ')}`;
}

/**
 * The URL globs a crawl may follow: the configured ones, or everything under each seed's origin.
 * The origin is escaped: an IPv6 host (`[::1]`) would otherwise be a character class, and a host
 * with braces or parentheses a glob expression, so the site could not follow its own links.
 */
export function allowedGlobs(site: SiteConfig): string[] {
  if (site.allow.length > 0) return site.allow;
  return [...siteOrigins(site)].map((origin) => `${escapeGlob(origin, { magicalBraces: true })}/**`);
}

/** The origins of a site's seeds: its own, whatever else its globs allow (its sitemaps' and its pages' own resources). */
export function siteOrigins(site: Pick<SiteConfig, 'seeds'>): Set<string> {
  return new Set(site.seeds.map((seed) => new URL(seed).origin));
}

/**
 * The site configuration as JSON Schema (as a request body gives it: defaults are defaults, not
 * requirements), from the one schema above: what the API's OpenAPI document says a site is.
 */
export function siteConfigJsonSchema(): Record<string, unknown> {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(SITE_CONFIG_SCHEMA, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return schema;
}

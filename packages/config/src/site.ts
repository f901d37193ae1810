import { z } from 'zod';

const httpUrl = z
  .string()
  .trim()
  .refine((text) => URL.canParse(text) && ['http:', 'https:'].includes(new URL(text).protocol), { message: 'must be an absolute http(s) URL' });

/** A site name is used in URLs, queue job ids and index filters: keep it a slug. */
export const SITE_NAME = z
  .string()
  .trim()
  .regex(/^[a-z0-9][a-z0-9-]{0,62}$/, { message: 'must be 1-63 lowercase letters, digits or hyphens, starting with a letter or digit' });

/**
 * What an operator configures per site. `allow` holds URL globs (Crawlee's `enqueueLinks`
 * syntax); when empty, every URL under a seed's origin is allowed.
 */
export const SITE_CONFIG_SCHEMA = z
  .object({
    name: SITE_NAME,
    seeds: z.array(httpUrl).min(1, { message: 'needs at least one seed URL' }).max(1000),
    allow: z.array(z.string().trim().min(1)).max(100).default([]),
    maxPages: z.number().int().min(1).max(1_000_000).default(1000),
    maxDepth: z.number().int().min(0).max(100).default(20),
    concurrency: z.number().int().min(1).max(64).default(4),
    /** Pause between two requests of one crawler task, in milliseconds (politeness). */
    delayMs: z.number().int().min(0).max(60_000).default(0),
    /** `browser` renders pages in Chromium (JavaScript-built sites); `http` fetches HTML. */
    render: z.enum(['http', 'browser']).default('http'),
    /** Pages a page-type cluster needs before it gets a template. */
    minTemplatePages: z.number().int().min(2).max(1000).default(10),
    /** Re-run template preparation this often (milliseconds); 0 turns the schedule off. */
    templateEveryMs: z.number().int().min(0).max(366 * 24 * 3600_000).default(24 * 3600_000),
  })
  .strict();

export type SiteConfig = z.infer<typeof SITE_CONFIG_SCHEMA>;
export type SiteConfigInput = z.input<typeof SITE_CONFIG_SCHEMA>;

export class SiteConfigError extends Error {
  override readonly name = 'SiteConfigError';
}

/** Validates a site configuration from any boundary (CLI flags, API body, stored row). */
export function parseSiteConfig(input: unknown): SiteConfig {
  const parsed = SITE_CONFIG_SCHEMA.safeParse(input);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'site'}: ${issue.message}`);
    throw new SiteConfigError(`invalid site configuration: ${problems.join('; ')}`);
  }
  return parsed.data;
}

/** The URL globs a crawl may follow: the configured ones, or everything under each seed's origin. */
export function allowedGlobs(site: SiteConfig): string[] {
  if (site.allow.length > 0) return site.allow;
  return [...new Set(site.seeds.map((seed) => `${new URL(seed).origin}/**`))];
}

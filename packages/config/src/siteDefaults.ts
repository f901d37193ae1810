/**
 * Each site setting's default, declared once: the site schema (`site.ts`) takes its defaults from
 * here, and the command line's help prints them without loading the schema (zod and what it
 * validates with cost a command that only prints its help ten times node's own start).
 */
export const SITE_DEFAULTS = {
  allow: [] as readonly string[],
  maxPages: 1000,
  maxDepth: 20,
  concurrency: 4,
  delayMs: 0,
  render: 'http',
  minTemplatePages: 10,
  templateEveryMs: 24 * 3600_000,
  allowPrivateAddresses: false,
  sitemaps: false,
  maxSitemaps: 1000,
  recrawlEveryMs: 0,
  maxPagesPerPattern: 0,
} as const;

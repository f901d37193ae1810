import { readFile } from 'node:fs/promises';
import { parseSiteConfig, type SiteConfig, WinnowError } from '@winnow/config';
import type { Site } from '@winnow/storage';
import { parseDocument } from 'yaml';
import { withOperator } from '../operator.js';
import { UsageError } from '../usageError.js';
import { write } from './output.js';

/** One site of the file: its settings as written (sent as they are) and as the site schema reads them (defaults filled in). */
interface DesiredSite {
  input: Record<string, unknown>;
  config: SiteConfig;
}

/**
 * Reads a sites file: YAML (or JSON, which is YAML) holding `sites:`, a list of site
 * configurations in the API's terms (`name`, `seeds`, `maxPages`…), or that list alone. Every site
 * is checked with the one site schema before anything is applied, and every problem is named at
 * once (`sites.yaml: site 2 (news): …`): a file with a mistake changes nothing.
 */
export function readSitesFile(text: string, file: string): DesiredSite[] {
  const document = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (document.errors.length > 0) throw new UsageError(`${file}: not valid YAML: ${document.errors.map((error) => error.message).join('; ')}`);
  const root: unknown = document.toJS();
  const list = Array.isArray(root)
    ? root
    : typeof root === 'object' && root !== null && Object.keys(root).length === 1 && Array.isArray((root as { sites?: unknown }).sites)
      ? (root as { sites: unknown[] }).sites
      : undefined;
  if (!list)
    throw new UsageError(`${file}: expected a list of sites, or "sites:" holding one (each site as the API takes it: name, seeds, and any other settings)`);
  if (list.length === 0) throw new UsageError(`${file}: the list of sites is empty`);
  const problems: string[] = [];
  const desired: DesiredSite[] = [];
  const seen = new Set<string>();
  for (const [index, entry] of list.entries()) {
    const named =
      typeof entry === 'object' && entry !== null && typeof (entry as { name?: unknown }).name === 'string' ? ` (${(entry as { name: string }).name})` : '';
    const where = `${file}: site ${index + 1}${named}`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      problems.push(`${where}: expected the site's settings (name, seeds, …)`);
      continue;
    }
    try {
      const config = parseSiteConfig(entry);
      if (seen.has(config.name)) problems.push(`${where}: ${config.name} is named twice in the file`);
      seen.add(config.name);
      desired.push({ input: entry as Record<string, unknown>, config });
    } catch (error) {
      if (!(error instanceof WinnowError)) throw error;
      problems.push(`${where}: ${error.message}`);
    }
  }
  if (problems.length > 0) throw new UsageError(`nothing applied; fix these first:\n  ${problems.join('\n  ')}`);
  return desired;
}

/** A setting's value as a change says it: JSON, lists and all, so that `[]` and `""` stay visible. */
const shown = (value: unknown) => JSON.stringify(value) ?? 'unset';

/** The settings that differ between a site's stored configuration and the file's, by key, as `maxPages 200 -> 500`. */
export function configChanges(stored: SiteConfig, desired: SiteConfig): string[] {
  const keys = [...new Set([...Object.keys(stored), ...Object.keys(desired)])];
  const before = stored as Record<string, unknown>;
  const after = desired as Record<string, unknown>;
  return keys.filter((key) => shown(before[key]) !== shown(after[key])).map((key) => `${key} ${shown(before[key])} -> ${shown(after[key])}`);
}

/**
 * `winnow sites apply <file>`: makes the sites of the file exist with exactly the file's settings
 * (a setting left out takes its default, as `PUT /sites/:name` does), and says for each whether it
 * was added, updated (with what changed) or already so. Applying the same file again changes
 * nothing. Sites the file does not name are left as they are, and listed. With `--dry-run`, says
 * what it would do and does nothing.
 */
export async function sitesApplyCommand(file: string, flags: { dryRun?: boolean }): Promise<void> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`);
  }
  const desired = readSitesFile(text, file);
  const would = flags.dryRun ? 'would be ' : '';
  await withOperator(async (operator) => {
    const stored = new Map((await operator.listSites()).map((site): [string, Site] => [site.name, site]));
    const tally = { added: 0, updated: 0, unchanged: 0 };
    for (const { input, config } of desired) {
      const site = stored.get(config.name);
      if (!site) {
        if (!flags.dryRun) await operator.addSite(input);
        tally.added++;
        write(`${config.name}: ${would}added (${config.seeds.join(' ')})\n`);
        continue;
      }
      const changes = configChanges(site.config, config);
      if (changes.length === 0) {
        tally.unchanged++;
        write(`${config.name}: unchanged\n`);
        continue;
      }
      if (!flags.dryRun) await operator.replaceSite(config.name, input);
      tally.updated++;
      write(`${config.name}: ${would}updated: ${changes.join(', ')}\n`);
    }
    const others = [...stored.keys()].filter((name) => !desired.some((site) => site.config.name === name));
    write(
      `${desired.length} site${desired.length === 1 ? '' : 's'} in ${file}: ${tally.added} ${would}added, ${tally.updated} ${would}updated, ${tally.unchanged} unchanged` +
        (others.length > 0 ? `; not in the file, left as they are: ${others.join(', ')}` : '') +
        '\n',
    );
  });
}

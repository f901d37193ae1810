import type { PageExplanation, SitePages, SiteStatus } from '@winnow/runtime';
import type { PageExtraction } from '@winnow/storage';
import { withOperator } from '../operator.js';
import { asJson, counted, listingFooter, write } from './output.js';

/**
 * `winnow pages <site>` and `winnow page <url>`: what the pipeline made of each page, for an
 * analyst who prepares templates again and watches extraction quality — which pages the
 * self-check read alone, which came out empty, which have warnings — where `templates list` and
 * `templates health` give only shares.
 */

/** A warning in a listing's line: the first 100 characters, on one line (the page's own view has them in full). */
function shortWarning(warning: string): string {
  const line = warning.replace(/\s+/g, ' ').trim();
  return line.length > 100 ? `${line.slice(0, 100)}…` : line;
}

/** `v3 /articles/:n.html`, or `no template` for a page read without one. */
function templateOf(page: { templateVersion: number | null; pageType: string | null }): string {
  if (page.templateVersion === null) return 'no template';
  return page.pageType === null ? `v${page.templateVersion}` : `v${page.templateVersion} ${page.pageType}`;
}

const words = (count: number) => (count === 0 ? '0 words (empty)' : counted(count, 'word'));

/** The filters a listing was asked for, in words: `read alone, empty, page type /articles/:n.html`. */
function filterWords(filters: SitePages['filters']): string[] {
  const said: string[] = [];
  if (filters.readAlone !== null) said.push(filters.readAlone ? 'read alone' : 'not read alone');
  if (filters.empty !== null) said.push(filters.empty ? 'empty' : 'not empty');
  if (filters.warnings !== null) said.push(filters.warnings ? 'with warnings' : 'without warnings');
  if (filters.pageType !== null) said.push(`page type ${filters.pageType}`);
  return said;
}

/**
 * A site's pages as text, one line per page: its URL, the template version and page type that
 * read it, the method (and whether the self-check read it alone), its words, and its warnings
 * (how many, and the first); then what the listing is of and where this page of it is.
 */
export function formatSitePages(listing: SitePages): string {
  const filters = filterWords(listing.filters);
  const scope = `extracted pages of ${listing.site}${filters.length > 0 ? ` (${filters.join(', ')})` : ''}`;
  if (listing.total === 0) return `no ${scope}\n`;
  const lines = listing.entries.map((page) => {
    const warnings =
      page.warningCount === 0
        ? 'no warnings'
        : `${counted(page.warningCount, 'warning')}${page.warningCount > 1 ? ', first' : ''}: ${shortWarning(page.firstWarning ?? '')}`;
    return `${page.url}\t${templateOf(page)}\t${page.method}${page.readAlone ? ', read alone' : ''}\t${words(page.wordCount)}\t${warnings}\n`;
  });
  return `${lines.join('')}${listingFooter(scope, listing)}`;
}

export interface SitePagesFlags {
  readAlone?: boolean;
  empty?: boolean;
  warnings?: boolean;
  pageType?: string;
  page?: number;
  size?: number;
  json?: boolean;
}

/**
 * What `winnow status` adds to a site's extracted pages when some were read alone or came out
 * empty (` (3 read alone, 1 empty: winnow pages news)`); nothing when none did (older APIs send neither count).
 */
export function extractionNotes(site: Pick<SiteStatus, 'site' | 'readAlone' | 'empty'>): string {
  const notes = [...(site.readAlone > 0 ? [`${site.readAlone} read alone`] : []), ...(site.empty > 0 ? [`${site.empty} empty`] : [])];
  return notes.length === 0 ? '' : ` (${notes.join(', ')}: winnow pages ${site.site})`;
}

export async function sitePagesCommand(name: string, flags: SitePagesFlags): Promise<void> {
  const { json, ...params } = flags;
  await withOperator(async (operator) => {
    const listing = await operator.sitePages(name, params);
    write(json ? asJson(listing) : formatSitePages(listing));
  });
}

/** Lines of the main text the default view of a page shows; `--text` shows them all. */
const PREVIEW_LINES = 3;

/**
 * One page's extraction as text: what it was read with and how, every warning, and the start of
 * its main text (all of it with `text`, after a blank line, unindented so that it can be copied).
 */
export function formatPage(page: PageExtraction, text = false): string {
  const lines = [
    page.url,
    `  site: ${page.site}`,
    `  title: ${page.title || '(none)'}`,
    `  template: ${page.templateVersion === null ? 'none (read without a template of its page type)' : templateOf(page)}`,
    `  method: ${page.method}`,
    `  read alone: ${page.readAlone ? "yes: the self-check did not trust the template's reading" : 'no'}`,
    `  words: ${page.wordCount === 0 ? '0 (empty)' : page.wordCount}`,
    ...(page.duplicateOf ? [`  duplicate of: ${page.duplicateOf}`] : []),
    `  extracted: ${new Date(page.extractedAt).toISOString()}`,
    page.warnings.length === 0 ? '  warnings: none' : `  warnings (${page.warnings.length}):`,
    ...page.warnings.map((warning) => `    - ${warning}`),
  ];
  const textLines = page.mainText.split('\n').filter((line) => line.trim() !== '');
  if (textLines.length === 0) lines.push('  main text: none');
  else if (text) lines.push('  main text:', '', ...page.mainText.split('\n'));
  else {
    const rest = textLines.length - PREVIEW_LINES;
    const cut = textLines.slice(0, PREVIEW_LINES).some((line) => line.length > 200);
    const whole = rest > 0 ? ` (first ${PREVIEW_LINES} of ${textLines.length} lines; --text prints it all)` : cut ? ' (cut; --text prints it all)' : '';
    lines.push(`  main text${whole}:`, ...textLines.slice(0, PREVIEW_LINES).map((line) => `    ${line.length > 200 ? `${line.slice(0, 200)}…` : line}`));
  }
  return lines.map((line) => `${line}\n`).join('');
}

/**
 * A page's explanation as text: how it was read, then every line of the page in document order,
 * `+` kept and `-` dropped, with the rule that decided it (the rules in words follow, once each),
 * and whether the re-reading keeps the stored text.
 */
export function formatExplanation(explanation: PageExplanation): string {
  const { page } = explanation;
  const layout = explanation.layout
    ? `the layout of ${explanation.layout.pageCount} sample page(s), of whose block paths the page has ${Math.round(100 * explanation.layout.similarity)}%`
    : 'none';
  const lines = [
    page.url,
    `  site: ${page.site}`,
    `  template: ${page.templateVersion === null ? 'none (read without a template of its page type)' : templateOf(page)}`,
    `  method: ${page.method}`,
    `  self-check: ${explanation.selfCheck.verdict}${explanation.selfCheck.reason === 'none' ? '' : ` (${explanation.selfCheck.reason})`}`,
    `  layout: ${layout}`,
    ...(explanation.readAlone ? [`  read alone: ${explanation.readAlone}`] : []),
    page.warnings.length === 0 ? '  warnings: none' : `  warnings (${page.warnings.length}):`,
    ...page.warnings.map((warning) => `    - ${warning}`),
    '',
  ];
  const rules = new Map<string, string>();
  for (const line of explanation.lines) {
    const text = line.text.length > 120 ? `${line.text.slice(0, 120)}…` : line.text;
    lines.push(`${line.kept ? '+' : '-'} [${line.rule}] ${text}`);
    // A rule's words name its line's specifics (the template's rule beside it): the first occurrence is shown.
    if (!rules.has(line.rule)) rules.set(line.rule, line.reason);
  }
  const kept = explanation.lines.filter((line) => line.kept).length;
  lines.push('', `rules (${kept} line(s) kept, ${explanation.lines.length - kept} dropped):`);
  for (const [rule, reason] of rules) lines.push(`  ${rule}: ${reason}`);
  lines.push(
    explanation.matchesStored
      ? 'the kept lines are the stored main text'
      : 'the kept lines differ from the stored main text: the page was extracted by another version of Winnow, or its template changed since',
  );
  if (explanation.previous) {
    const changed = explanation.previous.diff.filter((line) => line.change !== 'same');
    lines.push(
      changed.length === 0
        ? `the template of version ${explanation.previous.templateVersion} read the same text`
        : `against the template of version ${explanation.previous.templateVersion} (+ now, - then):`,
      ...changed.map((line) => `  ${line.change === 'added' ? '+' : '-'} ${line.text.length > 120 ? `${line.text.slice(0, 120)}…` : line.text}`),
    );
  }
  return lines.map((line) => `${line}\n`).join('');
}

export async function pageCommand(url: string, flags: { site?: string; text?: boolean; json?: boolean; explain?: boolean }): Promise<void> {
  await withOperator(async (operator) => {
    if (flags.explain) {
      const explanation = await operator.explainPage(url, flags.site);
      // As the API answers it (`GET /pages/explain?url=`).
      write(flags.json ? asJson({ explanation }) : formatExplanation(explanation));
      return;
    }
    const page = await operator.page(url, flags.site);
    // As the API answers it (`GET /pages?url=`): one shape for a page, whichever way it is asked for.
    write(flags.json ? asJson({ page }) : formatPage(page, flags.text === true));
  });
}

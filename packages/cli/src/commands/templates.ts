import type { PageTypeOutcome, TemplateJobResult } from '@winnow/queue';
import type { TemplateLayoutOutline } from '@winnow/extract';
import type { HealthHistoryPage, TemplateDiff, TemplateVersionView } from '@winnow/runtime';
import type { TemplateChanges, TemplateHealth, TemplateSummary } from '@winnow/storage';
import { withOperator } from '../operator.js';
import { asJson, counted, listingFooter, write } from './output.js';

/**
 * `winnow templates …`: an analyst's view of a site's templates — a preparation now and what became
 * of each page type, the stored versions and what each changed, and the page types' health over time.
 */

/** How often a template job is asked about while the command waits for it. */
const JOB_POLL_MS = 500;

/**
 * `winnow templates prepare <site>`: an analyst's preparation, and what became of each page type,
 * printed the same embedded and remote. Embedded, the workers run here until the pipeline is idle
 * (the preparation and the re-extraction it queues); where workers run elsewhere the job is queued
 * for them, and `--wait` waits for its outcome. A preparation that failed for good fails the command.
 */
export async function templatesPrepareCommand(name: string, flags: { wait?: boolean }): Promise<void> {
  await withOperator(
    async (operator) => {
      const id = await operator.requestTemplates(name);
      if (operator.runsWorkersHere) await operator.follow([name]);
      else if (!flags.wait) return void write(`template preparation of ${name} queued as job ${id}; \`--wait\` waits for its outcome\n`);
      let job = await operator.templateJob(name, id);
      while (job.state === 'queued' || job.state === 'running') {
        await new Promise((resolve) => setTimeout(resolve, JOB_POLL_MS));
        job = await operator.templateJob(name, id);
      }
      if (!job.result)
        throw new Error(`template preparation of ${name} (job ${id}) ${job.state === 'failed' ? 'failed' : 'ended'}: ${job.error ?? 'no reason recorded'}`);
      write(formatPreparation(name, job.result));
    },
    { follows: true },
  );
}

/** A preparation's outcome: the site's version kept or stored, then each page type's. */
export function formatPreparation(site: string, result: TemplateJobResult): string {
  if ('skipped' in result) return `${site}: template preparation skipped: ${result.skipped}\n`;
  const { previousVersion: before, version } = result;
  const head =
    version !== before
      ? `templates v${version} stored; ${counted(result.reextract, 'page')} queued to be extracted again`
      : before === 0
        ? "no templates yet: no page type has the site's minTemplatePages stored pages"
        : `templates unchanged (version ${version} kept)${result.reextract > 0 ? `; ${counted(result.reextract, 'page')} queued to be extracted with it` : ''}`;
  const outcome = (type: PageTypeOutcome): string => {
    switch (type.outcome) {
      case 'new':
        return 'new template';
      case 'unchanged':
        return version === before ? `unchanged (version ${version} kept)` : `unchanged since v${before}, carried into v${version}`;
      case 'changed':
        return changeSummary(before, type.pathsAdded, type.pathsRemoved, type.alsoChanged);
      case 'removed':
        return type.pages === 0 ? 'template removed: no such pages any more' : "template removed: fewer pages than the site's minTemplatePages";
      case 'too-few-pages':
        return "no template: fewer pages than the site's minTemplatePages";
    }
  };
  return `${site}: ${head}\n${result.pageTypes.map((type) => `  ${type.cluster}\t${counted(type.pages, 'page')}\t${outcome(type)}\n`).join('')}`;
}

/**
 * What changed in a page type's template since version `since`, as a preparation's outcome and
 * `templates list` say it: content paths added and removed, then the other fields that changed
 * (`TemplateChanges.alsoChanged`). A version stored before those were recorded says only its paths.
 */
function changeSummary(since: number, added: number, removed: number, alsoChanged: readonly string[] | undefined): string {
  const paths = `+${added}/-${removed} content paths since v${since}`;
  if (alsoChanged === undefined) return added + removed === 0 ? `${paths} (what else changed was not recorded then)` : paths;
  if (added + removed + alsoChanged.length === 0) return `unchanged since v${since}`;
  return alsoChanged.length === 0 ? paths : `${paths}; changed: ${alsoChanged.join(', ')}`;
}

/** A template's health now, as `templates list` and `templates show` say it. */
function healthSummary(health: TemplateHealth): string {
  if (health.pages === 0) return 'no pages read yet';
  return `${health.pages} pages read, ${Math.round((100 * health.readAlone) / health.pages)}% alone, ${Math.round(health.meanWords)} words on average`;
}

/** What a stored version changed in a page type's template against the version before; null for a site's first version. */
function storedChanges(changes: TemplateChanges | null): string | null {
  if (!changes) return null;
  if (changes.since === null) return 'new page type';
  return changeSummary(changes.since, changes.pathsAdded.length, changes.pathsRemoved.length, changes.alsoChanged);
}

export function formatTemplates(templates: readonly TemplateSummary[]): string {
  if (templates.length === 0) return "no templates yet: a page type gets one once it has the site's minTemplatePages stored pages\n";
  return templates
    .map((t) => {
      const changes = storedChanges(t.changes);
      return (
        `${t.site}\tv${t.version}${t.current ? ' (current)' : ''}\t${t.cluster}\t${t.method}: ${t.pageCount} pages, ${t.sampleSize} sampled, ` +
        `${t.layouts} layout(s), ${t.contentPaths} content paths${changes ? `, ${changes}` : ''}\t${healthSummary(t.health)}\t${t.urlPatterns.join(' ')}\n`
      );
    })
    .join('');
}

export async function templatesListCommand(site: string | undefined, flags: { json?: boolean }): Promise<void> {
  await withOperator(async (operator) => {
    const templates = await operator.listTemplates(site);
    write(flags.json ? asJson(templates) : formatTemplates(templates));
  });
}

/** One layout of a template in a line: its pages, and what it matches pages by and drops, where the method keeps them. */
function layoutSummary(layout: TemplateLayoutOutline): string {
  return [
    counted(layout.pages, 'sample page'),
    ...(layout.signaturePaths === null ? [] : [counted(layout.signaturePaths, 'signature path')]),
    layout.regionPath === null ? 'no main region' : `main region ${layout.regionPath}`,
    counted(layout.boilerplateBlocks, 'boilerplate block'),
    ...(layout.repeatedLines === null ? [] : [counted(layout.repeatedLines, 'repeated line')]),
  ].join(', ');
}

/**
 * One version's templates as an analyst reads them to judge them: per page type, where it
 * applies, when and from what it was prepared, what the version changed, its health now, then
 * per layout what it matches and drops and the block paths it keeps as content.
 */
export function formatTemplateVersion(view: TemplateVersionView): string {
  const lines = [`${view.site} templates v${view.version}${view.current ? ' (current)' : ''}: ${counted(view.templates.length, 'page type')}`];
  for (const t of view.templates) {
    lines.push(
      '',
      t.cluster,
      `  URL patterns: ${t.urlPatterns.join(' ')}`,
      `  prepared: ${new Date(t.createdAt).toISOString()} by ${t.method}, from ${counted(t.pageCount, 'page')} (${t.sampleSize} sampled)`,
      `  changes: ${storedChanges(t.changes) ?? "the site's first version"}`,
      `  health: ${healthSummary(t.health)}`,
      `  signature: ${counted(t.signature.length, 'block path')} most of its pages have`,
    );
    if (t.layouts.length === 0) lines.push(`  ${t.method} keeps no block paths`);
    for (const [i, layout] of t.layouts.entries()) {
      lines.push(
        `  layout ${i + 1} of ${t.layouts.length}: ${layoutSummary(layout)}`,
        `    content paths (${layout.contentPaths.length}):`,
        ...layout.contentPaths.map((path) => `      ${path}`),
      );
    }
  }
  return lines.map((line) => `${line}\n`).join('');
}

export async function templatesShowCommand(site: string, flags: { pageType?: string; version?: number; json?: boolean }): Promise<void> {
  const { json, ...params } = flags;
  await withOperator(async (operator) => {
    const view = await operator.templateVersion(site, params);
    write(json ? asJson(view) : formatTemplateVersion(view));
  });
}

/** What became of each page type between two versions, with the content paths added (+) and removed (-) under it. */
export function formatTemplateDiff(diff: TemplateDiff): string {
  const lines = [`${diff.site} templates v${diff.from} to v${diff.to}`];
  for (const type of diff.pageTypes) {
    const paths = `+${type.pathsAdded.length}/-${type.pathsRemoved.length} content paths`;
    const outcome =
      type.outcome === 'new'
        ? `new in v${diff.to}: ${paths}`
        : type.outcome === 'removed'
          ? `not in v${diff.to}: ${paths}`
          : type.outcome === 'unchanged'
            ? 'unchanged'
            : `${paths}${type.alsoChanged.length > 0 ? `; changed: ${type.alsoChanged.join(', ')}` : ''}`;
    lines.push(`  ${type.cluster}\t${outcome}`, ...type.pathsAdded.map((path) => `    + ${path}`), ...type.pathsRemoved.map((path) => `    - ${path}`));
  }
  return lines.map((line) => `${line}\n`).join('');
}

export async function templatesDiffCommand(site: string, from: number, to: number | undefined, flags: { pageType?: string; json?: boolean }): Promise<void> {
  const { json, pageType } = flags;
  await withOperator(async (operator) => {
    const diff = await operator.templateDiff(site, { from, to, pageType });
    write(json ? asJson(diff) : formatTemplateDiff(diff));
  });
}

/**
 * A site's page types' health records, newest first: one line per record (a page type's figures
 * when they or its template changed), then what the listing is of and where this page of it is.
 */
export function formatHealthHistory(history: HealthHistoryPage): string {
  const scope = `health records of ${history.site}${history.since === null ? '' : ` since ${history.since}`}`;
  if (history.total === 0) {
    return history.since === null
      ? 'no health recorded yet: each templater run records the health of the templates it finds in use, from the run after the first templates on\n'
      : `no ${scope}\n`;
  }
  const lines = history.entries.map((record) => {
    const alone = record.pages === 0 ? 0 : Math.round((100 * record.readAlone) / record.pages);
    return `${record.cluster}\tv${record.version}\t${new Date(record.measuredAt).toISOString()}\t${record.pages} pages read, ${alone}% alone, ${Math.round(record.meanWords)} words on average\n`;
  });
  return `${lines.join('')}${listingFooter(scope, history)}`;
}

export async function templatesHealthCommand(site: string, flags: { since?: string; page?: number; size?: number; json?: boolean }): Promise<void> {
  const { json, ...params } = flags;
  await withOperator(async (operator) => {
    const history = await operator.templateHealth(site, params);
    write(json ? asJson(history) : formatHealthHistory(history));
  });
}

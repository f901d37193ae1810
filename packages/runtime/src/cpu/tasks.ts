import {
  clusterPages,
  type ExtractionResult,
  type PageCluster,
  type PageExtractor,
  type PreparedTemplate,
  type SitePage,
  singlePageMethodByName,
  templateMethodByName,
} from '@winnow/extract';

/** One page to extract: with a stored template (by the method that prepared it), or with the single-page fallback. */
export interface ExtractTask {
  html: string;
  /** The single-page method for a page no template fits. */
  fallback: string;
  /** A stored template, or null when the page has none yet. */
  template: { key: string; method: string; body: unknown } | null;
}

/** Sample pages to prepare a template from, with a template method. */
export interface PrepareTask {
  method: string;
  pages: string[];
}

/** A site's stored pages, to group into page types. */
export interface ClusterTask {
  pages: SitePage[];
  minPages: number;
}

/** Compiled templates of this thread, by key: a template is compiled once per thread, then reused. */
const compiled = new Map<string, PageExtractor>();
const COMPILED_CAPACITY = 64;

/**
 * Extracts a page (runs in a worker thread of the CPU pool, or inline). The template's body
 * crosses to the thread with every task (a few kilobytes); it is parsed and compiled only the
 * first time this thread meets its key.
 */
export function extract(task: ExtractTask): ExtractionResult {
  if (!task.template) return singlePageMethodByName(task.fallback).extract(task.html);
  let extractor = compiled.get(task.template.key);
  if (!extractor) {
    const method = templateMethodByName(task.template.method);
    extractor = method.compile(method.parseTemplate(task.template.body));
    if (compiled.size >= COMPILED_CAPACITY) compiled.delete(compiled.keys().next().value as string);
    compiled.set(task.template.key, extractor);
  }
  return extractor(task.html);
}

/** Prepares a template (runs in a worker thread of the CPU pool, or inline). */
export function prepare(task: PrepareTask): PreparedTemplate<unknown> {
  return templateMethodByName(task.method).prepare(task.pages);
}

/** Groups a site's pages into page types (runs in a worker thread of the CPU pool, or inline): it parses every page. */
export function cluster(task: ClusterTask): PageCluster[] {
  return clusterPages(task.pages, { minPages: task.minPages });
}

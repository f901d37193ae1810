import { extractAuto } from '../auto/auto.js';
import { extractWithBlurring } from '../ccb/ccb.js';
import { compileContentExtractor, extractWithContentExtractor, parseContentExtractorTemplate, prepareContentExtractor } from '../ce/contentExtractor.js';
import { ExtractionError } from '../result/errors.js';
import { compileTemplate, detect } from '../fastce/detect.js';
import { compilePlusAuto } from '../fastce/plusAuto.js';
import { prepareTemplate } from '../fastce/prepare.js';
import { DEFAULT_FASTCE_PARAMS, FASTCE_PLUS_PARAMS, type FastCeParams, parseTemplate, type Template } from '../fastce/template.js';
import { extractMainBlock } from '../mainblock/mainBlock.js';
import { compilePipeline, parsePipelineTemplate, preparePipeline } from '../pipeline/pipeline.js';
import { extractReader } from '../reader/reader.js';
import { extractWithReadability } from '../readability/readability.js';
import type { PageExtractor } from '../result/result.js';
import { extractWithRatio, type RatioVariant } from '../wlr/wlr.js';

/** A template and what preparing it noticed (pages skipped, caps hit). */
export interface PreparedTemplate<T> {
  template: T;
  warnings: string[];
}

/**
 * A method that learns from sample pages of a site before it extracts that site's pages, in two
 * steps so that the learning can be stored and shared: `prepare` makes a JSON-serialisable
 * template (the templater stores it), `parseTemplate` validates one read back, and `compile`
 * turns it into an extractor (the extractor service, once per template).
 */
export interface TemplateMethod<T = unknown> {
  readonly name: string;
  readonly kind: 'template';
  readonly description: string;
  prepare(pages: readonly string[]): PreparedTemplate<T>;
  parseTemplate(value: unknown): T;
  compile(template: T): PageExtractor;
  /** What an analyst reads of the template, per layout it keeps ([] for a method that keeps no block paths): see `templateContentPaths`. */
  outline(template: T): TemplateLayoutOutline[];
}

/**
 * One layout of a template as an analyst judges it (`winnow templates show`): the block paths it
 * reads as content and what it drops. A FastCE-family template is one layout; the pipeline keeps
 * one per layout of its page type's pages.
 */
export interface TemplateLayoutOutline {
  /** Sample pages the layout's template was learned from. */
  pages: number;
  /** Block paths at least half of the layout's pages have, by which a page is matched to it; null where the method matches no layouts. */
  signaturePaths: number | null;
  /** The block paths read as content, sorted. */
  contentPaths: string[];
  /** The path of the sample pages' main region (fastce+: text after it is dropped); null where none was learned. */
  regionPath: string | null;
  /** Boilerplate blocks stored, dropped where they appear on a content path. */
  boilerplateBlocks: number;
  /** Lines most of the layout's pages repeat, dropped from its readings; null where the method keeps none. */
  repeatedLines: number | null;
}

/** The block paths a template reads as content, over all its layouts, sorted: what the diff between two versions compares. */
export function templateContentPaths(method: TemplateMethod, template: unknown): string[] {
  return [...new Set(method.outline(template).flatMap((layout) => layout.contentPaths))].sort();
}

/** A FastCE template as one layout. */
function fastCeOutline(template: Template): TemplateLayoutOutline {
  return {
    pages: template.pageCount,
    signaturePaths: null,
    contentPaths: [...template.contentPaths].sort(),
    regionPath: template.regionPath,
    boilerplateBlocks: template.nonContent.length,
    repeatedLines: null,
  };
}

/** A method that reads one page alone. */
export interface SinglePageMethod {
  readonly name: string;
  readonly kind: 'single';
  readonly description: string;
  readonly extract: PageExtractor;
}

export type ExtractionMethod = TemplateMethod | SinglePageMethod;

/** A template method in the registry, whose template type stays between its own three steps. */
function templateMethod<T>(method: TemplateMethod<T>): TemplateMethod {
  return method as unknown as TemplateMethod;
}

/** A FastCE template method: the template is FastCE's, prepared with `params`; `compile` decides how pages are read with it. */
function fastCeMethod(name: string, description: string, params: Readonly<FastCeParams>, compile: (template: Template) => PageExtractor): TemplateMethod {
  return templateMethod<Template>({
    name,
    kind: 'template',
    description,
    prepare: (pages) => prepareTemplate(pages, { params }),
    parseTemplate,
    compile,
    outline: (template) => [fastCeOutline(template)],
  });
}

function detection(template: Template): PageExtractor {
  const compiled = compileTemplate(template);
  return (html, recorder) => detect(compiled, html, undefined, recorder);
}

const RATIO_NAMES: Record<RatioVariant, string> = { wlr: 'words/leaves', cnr: 'characters/nodes', wnr: 'words/nodes', clr: 'characters/leaves' };

const METHODS: readonly ExtractionMethod[] = [
  templateMethod({
    name: 'pipeline',
    kind: 'template',
    description: 'what the pipeline indexes: a fastce+ template per layout, checked page by page against the reader',
    prepare: preparePipeline,
    parseTemplate: parsePipelineTemplate,
    compile: compilePipeline,
    outline: (template) =>
      template.layouts.map((layout) => ({
        ...fastCeOutline(layout.template),
        pages: layout.pageCount,
        signaturePaths: layout.signature.length,
        repeatedLines: layout.repeatedLines.length,
      })),
  }),
  fastCeMethod('fastce', 'FastContentExtractor as the paper states it: template paths, then stored non-content blocks', DEFAULT_FASTCE_PARAMS, detection),
  fastCeMethod('fastce+', 'FastCE refined: link-dense blocks are navigation, neither content paths nor output', FASTCE_PLUS_PARAMS, detection),
  fastCeMethod('fastce+auto', 'the fastce+ template and the auto single-page reading must agree on every line', FASTCE_PLUS_PARAMS, compilePlusAuto),
  templateMethod({
    name: 'ce',
    kind: 'template',
    description: 'ContentExtractor (Debnath et al.): atomic blocks compared with every block of the sample pages',
    prepare: (pages) => prepareContentExtractor(pages),
    parseTemplate: parseContentExtractorTemplate,
    compile: (template) => {
      const model = compileContentExtractor(template);
      return (html) => extractWithContentExtractor(model, html);
    },
    outline: () => [],
  }),
  {
    name: 'auto',
    kind: 'single',
    description: "the best single-page reading: Readability's article, cleaned by our block rules",
    extract: extractAuto,
  },
  {
    name: 'reader',
    kind: 'single',
    description: "a Readability-style reading of one page on the block tree, without a DOM: fast and of Readability's quality",
    extract: extractReader,
  },
  {
    name: 'mainblock',
    kind: 'single',
    description: "single-page fallback: the deepest block holding most of the page's prose",
    extract: extractMainBlock,
  },
  ...(['wlr', 'cnr', 'wnr', 'clr'] as const).map(
    (variant): SinglePageMethod => ({
      name: variant,
      kind: 'single',
      description: `${RATIO_NAMES[variant]} ratio with the WLR paper's selection of the best DOM node`,
      extract: (html) => extractWithRatio(html, variant),
    }),
  ),
  ...(['ccb', 'accb', 'tccb'] as const).map(
    (variant): SinglePageMethod => ({
      name: variant,
      kind: 'single',
      description: `content code blurring${variant === 'accb' ? ' ignoring anchor tags' : variant === 'tccb' ? ' on tokens' : ' on characters'}`,
      extract: (html) => extractWithBlurring(html, variant),
    }),
  ),
  {
    name: 'readability',
    kind: 'single',
    description: 'Mozilla Readability on jsdom, the peer baseline (comparison only)',
    extract: extractWithReadability,
  },
];

export { SINGLE_PAGE_METHOD_NAMES, TEMPLATE_METHOD_NAMES } from './names.js';

/** Every method's name, in the order reports list them. */
export const METHOD_NAMES: readonly string[] = METHODS.map((method) => method.name);

/** Looks a method up by the name users type; unknown names get an error that lists the known ones. */
export function methodByName(name: string): ExtractionMethod {
  const method = METHODS.find((candidate) => candidate.name === name);
  if (!method) {
    throw new ExtractionError('invalid-argument', `unknown method "${name}"; known methods: ${METHOD_NAMES.join(', ')}`);
  }
  return method;
}

/** Looks a template method up by name; a single-page method's name is an error here. */
export function templateMethodByName(name: string): TemplateMethod {
  const method = methodByName(name);
  if (method.kind !== 'template') throw new ExtractionError('invalid-argument', `"${name}" reads single pages; it has no template to prepare`);
  return method;
}

/** Looks a single-page method up by name; a template method's name is an error here. */
export function singlePageMethodByName(name: string): SinglePageMethod {
  const method = methodByName(name);
  if (method.kind !== 'single') throw new ExtractionError('invalid-argument', `"${name}" needs a template; a single-page method is needed here`);
  return method;
}

/**
 * A template method's extractor for a site, prepared from `pages`, with the template passed
 * through JSON and validated on the way, exactly as the pipeline stores and reads it back: what
 * the evaluation measures is what the pipeline runs.
 */
export function preparedExtractor(method: TemplateMethod, pages: readonly string[]): PageExtractor {
  const { template } = method.prepare(pages);
  return method.compile(method.parseTemplate(JSON.parse(JSON.stringify(template))));
}

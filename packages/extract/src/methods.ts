import { extractAuto } from './auto.js';
import { extractWithBlurring } from './ccb.js';
import { extractWithContentExtractor, prepareContentExtractor } from './contentExtractor.js';
import { compileTemplate, detect } from './detect.js';
import { ExtractionError } from './errors.js';
import { extractMainBlock } from './mainBlock.js';
import { prepareTemplate } from './prepare.js';
import { prepareTemplateAuto } from './templateAuto.js';
import { extractWithReadability } from './readability.js';
import type { ExtractionResult } from './result.js';
import { extractWithRatio, type RatioVariant } from './wlr.js';

/** Extracts one page's main text. */
export type PageExtractor = (html: string) => ExtractionResult;

/** A method that learns from sample pages of a site before it extracts that site's pages. */
export interface TemplateMethod {
  readonly name: string;
  readonly kind: 'template';
  readonly description: string;
  prepare(pages: readonly string[]): PageExtractor;
}

/** A method that reads one page alone. */
export interface SinglePageMethod {
  readonly name: string;
  readonly kind: 'single';
  readonly description: string;
  readonly extract: PageExtractor;
}

export type ExtractionMethod = TemplateMethod | SinglePageMethod;

const RATIO_NAMES: Record<RatioVariant, string> = { wlr: 'words/leaves', cnr: 'characters/nodes', wnr: 'words/nodes', clr: 'characters/leaves' };

const METHODS: readonly ExtractionMethod[] = [
  {
    name: 'fastce',
    kind: 'template',
    description: 'FastContentExtractor as the paper states it: template paths, then stored non-content blocks',
    prepare(pages) {
      const compiled = compileTemplate(prepareTemplate(pages).template);
      return (html) => detect(compiled, html);
    },
  },
  {
    name: 'fastce+',
    kind: 'template',
    description: 'FastCE refined: link-dense blocks are navigation, neither content paths nor output',
    prepare(pages) {
      const compiled = compileTemplate(prepareTemplate(pages, { params: { refine: true } }).template);
      return (html) => detect(compiled, html);
    },
  },
  {
    name: 'fastce+auto',
    kind: 'template',
    description: 'the fastce+ template and the auto single-page reading must agree on every line',
    prepare: prepareTemplateAuto,
  },
  {
    name: 'ce',
    kind: 'template',
    description: 'ContentExtractor (Debnath et al.): atomic blocks compared with every block of the sample pages',
    prepare(pages) {
      const model = prepareContentExtractor(pages);
      return (html) => extractWithContentExtractor(model, html);
    },
  },
  {
    name: 'auto',
    kind: 'single',
    description: 'the best single-page reading: Readability\'s article, cleaned by our block rules',
    extract: extractAuto,
  },
  {
    name: 'mainblock',
    kind: 'single',
    description: 'single-page fallback: the deepest block holding most of the page\'s prose',
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

import { extractAuto } from '../auto/auto.js';
import { terms } from '../ce/features.js';
import { type ExtractionResult, type PageExtractor, resultOf } from '../result/result.js';
import { compileTemplate, detect } from './detect.js';
import type { Template } from './template.js';

/** Below this share of `auto`'s words confirmed by the template, the template is taken not to fit. */
const MIN_CONFIRMED = 0.5;

/**
 * `fastce+auto`: the site's template and the single-page reading must agree. `fastce+` removes
 * what repeats across the site's pages (Readability keeps a site's standard "share this" or
 * newsletter paragraphs inside the article); `auto` removes what the template keeps because it
 * changes from page to page (related links, captions). A line of `auto`'s output stays when its
 * words occur, in order, in `fastce+`'s text. When the template confirms less than half of
 * `auto`'s words, it does not fit the page and `auto`'s reading is kept whole, with a warning.
 */
export function compilePlusAuto(template: Template): PageExtractor {
  const compiled = compileTemplate(template);
  return (html): ExtractionResult => {
    const single = extractAuto(html);
    const templated = detect(compiled, html);
    const templateText = ` ${terms(templated.text).join(' ')} `;
    const confirmed = single.blocks.filter((block) => {
      const words = terms(block.text);
      return words.length === 0 || templateText.includes(` ${words.join(' ')} `);
    });
    const total = terms(single.text).length;
    const kept = terms(confirmed.map((block) => block.text).join(' ')).length;
    if (total > 0 && kept < MIN_CONFIRMED * total) {
      return resultOf('fastce+auto', single.blocks, [...single.warnings, "the template confirms too little of the page: auto's reading kept whole"]);
    }
    return resultOf('fastce+auto', confirmed, [...single.warnings, ...templated.warnings]);
  };
}

import { DEMO_SITE_NAMES, demoSite } from '@winnow/demo-corpus';
import { lcsF1 } from '@winnow/eval';
import { compileTemplate, detect, prepareTemplate } from '@winnow/extract';
import { UsageError } from '../usageError.js';

interface DemoFlags {
  site: string;
  pages: number;
  showTemplate?: boolean;
}

/**
 * `winnow demo`: the main job before the pipeline exists — learn a fastce+ template from sample
 * article pages of a bundled demo site, then print the clean text of an article it has not seen.
 * Notes go to stderr, the text alone to stdout.
 */
export async function demoCommand(flags: DemoFlags): Promise<void> {
  if (!DEMO_SITE_NAMES.includes(flags.site)) throw new UsageError(`unknown demo site "${flags.site}"; known: ${DEMO_SITE_NAMES.join(', ')}`);
  const articles = demoSite(flags.site).pages.filter((page) => page.kind === 'article');
  if (flags.pages >= articles.length) throw new UsageError(`--pages must be below ${articles.length}`);
  const sample = articles.slice(0, flags.pages);
  const unseen = articles[articles.length - 1]!;
  const { template, warnings } = prepareTemplate(sample.map((page) => page.html), { params: { refine: true } });
  for (const warning of warnings) process.stderr.write(`warning: ${warning}\n`);
  if (flags.showTemplate) process.stderr.write(`${JSON.stringify(template, null, 2)}\n`);
  const result = detect(compileTemplate(template), unseen.html);
  process.stderr.write(
    `Learned a fastce+ template from ${sample.length} pages of the demo site "${flags.site}": ` +
      `${template.contentPaths.length} content paths, ${template.nonContent.length} stored non-content blocks, main region ${template.regionPath ?? 'none'}.\n` +
      `Main text of ${unseen.path} (never seen while learning; ${result.blocks.length} blocks, lcs F1 against its gold ${lcsF1(unseen.gold, result.text).toFixed(3)}):\n\n`,
  );
  process.stdout.write(`${result.text}\n`);
}

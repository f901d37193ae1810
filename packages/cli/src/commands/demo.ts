import { DEMO_SITE_NAMES, serveDemoWeb, type ServedDemoSite } from '@winnow/demo-corpus';
import { lcsF1 } from '@winnow/eval';
import { addSite, startCrawl, type Runtime } from '@winnow/runtime';
import { wordsOf } from '@winnow/search';
import { closeAll, followPipeline, openCommandRuntime, startWorkers } from '../pipeline.js';
import { printStatus, searchCommand } from './operate.js';

interface DemoFlags {
  articles: number;
}

/**
 * `winnow demo`: the whole pipeline on the bundled demo web, embedded (in-memory PGlite, the
 * Postgres full-text index, a private redis-server), whatever the environment says. Serves the
 * demo sites on 127.0.0.1, crawls them, prepares templates, extracts and indexes every page,
 * scores the extractions against the demo's gold, and runs exact-phrase searches: one across an
 * inline element, one across two blocks, and one that only boilerplate contains.
 */
export async function demoCommand(flags: DemoFlags): Promise<void> {
  const web = await serveDemoWeb(DEMO_SITE_NAMES, { articles: flags.articles });
  const rt = await openCommandRuntime({ DATABASE_URL: '', REDIS_URL: '', ELASTICSEARCH_URL: '', WINNOW_DATA_DIR: 'memory' });
  const services = await startWorkers(rt);
  try {
    process.stderr.write(
      `Serving ${web.sites.length} demo sites on 127.0.0.1; crawling, templating, extracting and indexing them (embedded: PGlite in memory, private redis-server)\n`,
    );
    for (const site of web.sites) {
      await addSite(rt, { name: site.name, seeds: [`${site.origin}/`], maxPages: 5000, concurrency: 8, templateEveryMs: 0, allowPrivateAddresses: true });
      await startCrawl(rt, site.name);
    }
    await followPipeline(rt);
    await printStatus(
      rt,
      web.sites.map((site) => site.name),
    );
    await printQuality(rt, web.sites);
    const gazette = web.sites[0] as ServedDemoSite;
    const { acrossInline, acrossBlocks } = demoPhrases(gazette);
    for (const [what, phrase] of [
      ['a phrase that runs through a <span>', acrossInline],
      ['a phrase that crosses two paragraphs', acrossBlocks],
      ['a phrase only an advertisement holds', 'Winter tyres at half price'],
    ] as const) {
      process.stdout.write(`\n== ${what}: "${phrase}"\n`);
      await searchCommand(`"${phrase}"`, { size: 3 }, rt);
    }
  } finally {
    await closeAll(services);
    await rt.close();
    await web.close();
  }
}

/** Mean lcs F1 of every indexed page's main text against the demo's gold, per site. */
async function printQuality(rt: Runtime, sites: readonly ServedDemoSite[]): Promise<void> {
  for (const site of sites) {
    const rows = await rt.db.query<{ url: string; main_text: string; method: string }>(
      `SELECT p.url, e.main_text, e.method FROM extractions e JOIN pages p ON p.id = e.page_id JOIN sites s ON s.id = p.site_id WHERE s.name = $1`,
      [site.name],
    );
    const scored = rows.filter((row) => site.goldByUrl.has(row.url));
    const mean = scored.reduce((sum, row) => sum + lcsF1(site.goldByUrl.get(row.url) as string, row.main_text), 0) / Math.max(scored.length, 1);
    const methods = [...new Set(rows.map((row) => row.method))].join(', ');
    process.stdout.write(`${site.name}: ${scored.length} pages scored against gold, mean lcs F1 ${mean.toFixed(3)} (${methods})\n`);
  }
}

/**
 * Two phrases of the site's first article: the words around a person's name (wrapped in a
 * `<span>` on the page), and the last words of one paragraph with the first of the next.
 */
export function demoPhrases(site: ServedDemoSite): { acrossInline: string; acrossBlocks: string } {
  const article = site.pages.find((page) => page.kind === 'article' && /<span class="yshortcuts"/.test(page.html));
  if (!article) throw new Error(`demo site ${site.name} has no article with a name in a <span>`);
  const name = /<span class="yshortcuts"[^>]*>([^<]+)<\/span>/.exec(article.html)?.[1] as string;
  const goldWords = wordsOf(article.gold);
  const nameWords = wordsOf(name);
  const at = goldWords.findIndex((_, i) => nameWords.every((word, k) => goldWords[i + k] === word));
  const acrossInline = goldWords.slice(Math.max(0, at - 2), at + nameWords.length + 2).join(' ');
  const lines = article.gold.split('\n').map(wordsOf);
  const first = lines.findIndex((words, i) => words.length >= 8 && (lines[i + 1]?.length ?? 0) >= 8);
  const acrossBlocks = [...(lines[first] as string[]).slice(-3), ...(lines[first + 1] as string[]).slice(0, 3)].join(' ');
  return { acrossInline, acrossBlocks };
}

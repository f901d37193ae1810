import { DEMO_SITE_NAMES, serveDemoWeb, type ServedDemoSite } from '@winnow/demo-corpus';
import { lcsF1 } from '@winnow/eval';
import { addSite, pipelineStatus, startCrawl, type Runtime } from '@winnow/runtime';
import { wordsOf } from '@winnow/search';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { closeAll, followPipeline, openCommandRuntime, startWorkers } from '../pipeline.js';
import { UsageError } from '../usageError.js';
import { formatStatus, searchCommand } from './operate.js';
import { write } from './output.js';

interface DemoFlags {
  articles: number;
  /** Where the database is kept for the commands suggested afterwards; `memory` keeps nothing. */
  dataDir: string;
}

/** The file that marks a folder as the demo's own, which the next demo may replace. */
const DEMO_MARK = 'WINNOW-DEMO';

/**
 * A fresh folder for the demo's database: the folder is created, or replaced when an earlier demo
 * made it (its mark); any other existing folder is refused, never emptied. Returns the database's
 * folder (`WINNOW_DATA_DIR`).
 */
async function demoDataDir(dir: string): Promise<string> {
  const root = resolve(dir);
  const database = join(root, 'pglite');
  if (existsSync(root)) {
    if (!existsSync(join(root, DEMO_MARK))) {
      throw new UsageError(`${dir} exists and is not a folder an earlier demo made: choose another --data-dir (or --data-dir memory to keep nothing)`);
    }
    if (existsSync(`${database}.lock`)) {
      throw new UsageError(
        `the demo's database in ${dir} is in use by another winnow process: stop it first (a process that was killed holds it for 10 s more)`,
      );
    }
    await rm(root, { recursive: true, force: true });
  }
  await mkdir(root, { recursive: true, mode: 0o700 });
  await writeFile(join(root, DEMO_MARK), 'This folder holds the database of `winnow demo`; the next demo replaces it.\n');
  return database;
}

/**
 * `winnow demo`: the whole pipeline on the bundled demo web, embedded (PGlite in a folder of its
 * own or in memory, the Postgres full-text index, a private redis-server), whatever the
 * environment says. Serves the demo sites on 127.0.0.1, crawls them, prepares templates, extracts
 * and indexes every page, scores the extractions against the demo's gold, and runs exact-phrase
 * searches: one across an inline element, one across two blocks, and one that only boilerplate
 * contains.
 */
export async function demoCommand(flags: DemoFlags): Promise<void> {
  const dataDir = flags.dataDir === 'memory' ? 'memory' : await demoDataDir(flags.dataDir);
  const web = await serveDemoWeb(DEMO_SITE_NAMES, { articles: flags.articles });
  const rt = await openCommandRuntime({ DATABASE_URL: '', REDIS_URL: '', ELASTICSEARCH_URL: '', WINNOW_API_URL: '', WINNOW_DATA_DIR: dataDir });
  let next = '';
  const services = await startWorkers(rt);
  try {
    process.stderr.write(
      `Serving ${web.sites.length} demo sites on 127.0.0.1; crawling, templating, extracting and indexing them (embedded: PGlite ${dataDir === 'memory' ? 'in memory' : `in ${dataDir}`}, private redis-server)\n`,
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
    const article = gazette.pages.find((page) => page.kind === 'article');
    next = whatNext(flags.dataDir, dataDir, gazette.name, article ? `${gazette.origin}${article.path}` : undefined, acrossBlocks);
  } finally {
    await closeAll(services);
    await rt.close();
    await web.close();
  }
  process.stdout.write(next);
}

/**
 * What the demo ends with: commands that work on what it leaves, with the folder it left it in (the
 * demo sites themselves are gone: they were served only while it ran), or, when it kept nothing,
 * that it kept nothing; and how to start on a site of one's own.
 */
function whatNext(dir: string, dataDir: string, site: string, articleUrl: string | undefined, phrase: string): string {
  const own = ['  winnow sites add mysite --seed https://example.com/', '  winnow crawl mysite', '  winnow search \'"a phrase of it"\''];
  // Run as the checkout's `pnpm winnow` script, there is no `winnow` on the PATH to type.
  const header = [
    '',
    '== What next',
    ...(process.env.npm_lifecycle_event === 'winnow' ? ['(In this checkout, type `pnpm --silent winnow` for `winnow`.)'] : []),
  ];
  if (dataDir === 'memory') {
    return [...header, 'The demo kept nothing: its database was in memory (--data-dir memory). To crawl a site of your own:', ...own, ''].join('\n');
  }
  return [
    ...header,
    `The demo's database is kept in ${dir} (the next demo replaces it). The demo sites are gone, so nothing more can be crawled there, but everything stored can be looked at:`,
    `  export WINNOW_DATA_DIR=${join(dir, 'pglite')}`,
    '  winnow status',
    `  winnow pages ${site}`,
    ...(articleUrl ? [`  winnow page ${articleUrl} --text`] : []),
    `  winnow templates show ${site}`,
    `  winnow search '"${phrase}"'`,
    '  winnow up        the HTTP API, its console (/console/) and /metrics, on http://127.0.0.1:8080',
    'To crawl a site of your own, in the default database (.winnow/pglite): unset WINNOW_DATA_DIR, then',
    ...own,
    '',
  ].join('\n');
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

/** Prints the status of the pipeline the demo opened. */
async function printStatus(rt: Runtime, sites?: readonly string[]): Promise<void> {
  write(formatStatus(await pipelineStatus(rt), sites));
}

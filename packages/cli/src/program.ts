import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { EXPORT_FORMATS, MAX_PAGE_SIZE } from '@winnow/config/paging';
import { SITE_DEFAULTS } from '@winnow/config/siteDefaults';
import { DEMO_SITE_NAMES } from '@winnow/demo-corpus';
import { CRAWL_LOG_OUTCOMES } from '@winnow/storage/outcomes';
import { USAGE_EXIT_CODE } from './usageError.js';
import { versionText } from './version.js';
import { WORKER_NAMES } from './workerNames.js';

/**
 * A command's action, loaded when the command runs. This module is the command table alone: it
 * imports commander and a few constants, so that `winnow --help`, `--version` and a mistyped call
 * load nothing else, and every command loads only its own modules (the eval, report and pipeline
 * modules pull in half the workspace; `pnpm bench cli` measures what that costs).
 */
function lazy<Module>(load: () => Promise<Module>, pick: (module: Module) => (...args: never[]) => unknown) {
  return async (...args: unknown[]): Promise<void> => {
    await (pick(await load()) as (...args: unknown[]) => unknown)(...args);
  };
}

const operate = () => import('./commands/operate.js');
const serveCommands = () => import('./commands/serve.js');

/** The `winnow` command line; built without running, so tests can drive the real program. */
export function buildProgram(): Command {
  const program = new Command('winnow').description('Winnow: learn where a site keeps its main text and extract it in document order').exitOverride((error) => {
    if (error.exitCode !== 0) process.exitCode = isHelp(error) ? error.exitCode : USAGE_EXIT_CODE;
    throw error;
  });
  // Positional: `--version` is the program's before a command, and a command's own after it (`templates show --version 3`).
  program.enablePositionalOptions();
  program.option('-V, --version', 'print the version (and the git commit of a checkout)').on('option:version', () => {
    const text = `${versionText()}\n`;
    process.stdout.write(text);
    // As commander's own `.version()` ends, read only when asked for (it may ask git).
    throw new CommanderError(0, 'commander.version', text);
  });

  program
    .command('demo')
    .description(
      `the whole pipeline, embedded, on the bundled demo web (${DEMO_SITE_NAMES.join(', ')}): crawl, templates, extraction, index, exact-phrase searches`,
    )
    .option('--articles <n>', 'articles per demo site (each site adds a listing page per 10)', positiveInteger, 200)
    .option(
      '--data-dir <dir>',
      'where the demo keeps its database, for the commands it suggests afterwards (replaced on each run); memory: keep nothing',
      '.winnow/demo',
    )
    .action(
      lazy(
        () => import('./commands/demo.js'),
        (module) => module.demoCommand,
      ),
    );

  program
    .command('up')
    .description('every worker and the HTTP API in this process (embedded default without DATABASE_URL / REDIS_URL)')
    .action(lazy(serveCommands, (module) => module.upCommand));

  program
    .command('worker')
    .description(`one service as this process's only job: ${WORKER_NAMES.join(', ')}`)
    .argument('<name>', 'the service')
    .action(lazy(serveCommands, (module) => module.workerCommand));

  const sites = program.command('sites').description('the sites Winnow crawls');
  const add = sites
    .command('add')
    .description('add a site to crawl')
    .argument('<name>', 'a slug: lowercase letters, digits, hyphens')
    .requiredOption('--seed <url...>', 'seed URLs');
  for (const option of siteSettings()) add.addOption(option);
  add.action(lazy(operate, (module) => module.sitesAddCommand));
  const update = sites
    .command('update')
    .description("change some of a site's settings; the others keep theirs")
    .argument('<name>')
    .option('--seed <url...>', 'seed URLs (they replace the current ones)');
  const settings = siteSettings();
  for (const option of settings) update.addOption(option);
  update
    .addOption(
      new Option(
        '--reset <settings>',
        `put settings back to their defaults, comma-separated or repeated: ${settings.map((option) => option.name()).join(', ')}`,
      ).argParser(settingNames(settings)),
    )
    .option('--json', 'print the site as JSON')
    .action(lazy(operate, (module) => module.sitesUpdateCommand));
  sites
    .command('list')
    .description('list the sites')
    .option('--json', 'print JSON')
    .action(lazy(operate, (module) => module.sitesListCommand));
  sites
    .command('apply')
    .description(
      "add and update many sites from one YAML file (a list of sites as the API takes them, under `sites:`): each gets exactly the file's settings; says what changed; applying it again changes nothing",
    )
    .argument('<file>', 'the YAML (or JSON) file')
    .option('--dry-run', 'say what would change, change nothing')
    .action(
      lazy(
        () => import('./commands/sitesApply.js'),
        (module) => module.sitesApplyCommand,
      ),
    );
  sites
    .command('remove')
    .description('remove a site with its pages, templates and index documents, and say how many of each')
    .argument('<name>')
    .action(lazy(operate, (module) => module.sitesRemoveCommand));

  program
    .command('crawl')
    .description('crawl a site (embedded: runs the whole pipeline for it here and waits)')
    .argument('<site>')
    .option('--wait', 'with workers elsewhere (a shared Redis, or WINNOW_API_URL): follow the crawl until the pipeline is idle')
    .option('--stop', "stop the site's crawl instead: queued URLs are cancelled, the crawl ends once the URLs being fetched are done")
    .action(lazy(operate, (module) => module.crawlCommand));

  program
    .command('crawl-log')
    .description("a site's URLs that were not stored, with the crawler's reason, and those indexed under another page (duplicate), newest crawl first")
    .argument('<site>')
    .option('--outcome <names>', `only these outcomes, comma-separated or repeated: ${CRAWL_LOG_OUTCOMES.join(', ')}`, list)
    .option('--crawl <id>', 'only this crawl of the site', positiveInteger)
    .option('--page <n>', 'page of the log, from 1', positiveInteger)
    .option('--size <n>', `URLs per page (at most ${MAX_PAGE_SIZE}; default 50)`, pageSize)
    .option('--json', 'print JSON')
    .action(
      lazy(
        operate,
        (module) => (site: string, flags: { outcome?: string[]; crawl?: number; page?: number; size?: number; json?: boolean }) =>
          module.crawlLogCommand(site, flags),
      ),
    );

  const pages = () => import('./commands/pages.js');
  program
    .command('pages')
    .description("a site's extracted pages: template version, method, words, read alone by the self-check or not, warnings")
    .argument('<site>')
    .option('--read-alone', "only pages the pipeline's self-check read alone (it did not trust the template's reading)")
    .option('--empty', 'only pages extracted with no words')
    .option('--warnings', 'only pages whose extraction has warnings')
    .option('--page-type <type>', 'only pages read by a template of this page type (as `templates list` names it)')
    .option('--page <n>', 'page of the listing, from 1', positiveInteger)
    .option('--size <n>', `pages per page (at most ${MAX_PAGE_SIZE}; default 50)`, pageSize)
    .option('--json', 'print JSON')
    .action(lazy(pages, (module) => module.sitePagesCommand));
  program
    .command('page')
    .description("one page's extraction in full: template, method, words, read alone or not, every warning, and its main text")
    .argument('<url>', 'the URL as the crawl stored it (as `winnow pages` lists it)', pageUrl)
    .option('--site <name>', 'the site whose page it is (needed only when two sites crawled the URL)')
    .option('--text', 'print the whole main text (else its first lines)')
    .option('--explain', 'why the page has its text: every line of the page, kept or dropped, and the rule that decided')
    .option('--json', 'print JSON')
    .action(lazy(pages, (module) => module.pageCommand));

  const templateCommands = () => import('./commands/templates.js');
  const templates = program
    .command('templates')
    .description("a site's templates: where each page type keeps its main text (the method is WINNOW_TEMPLATE_METHOD's)");
  templates
    .command('prepare')
    .description("prepare a site's templates again now, and say what became of each page type (embedded: runs here and waits)")
    .argument('<site>')
    .option('--wait', 'with workers elsewhere (a shared Redis, or WINNOW_API_URL): wait for the outcome')
    .action(lazy(templateCommands, (module) => module.templatesPrepareCommand));
  templates
    .command('list')
    .description('list stored templates')
    .argument('[site]')
    .option('--json', 'print JSON')
    .action(lazy(templateCommands, (module) => (site: string | undefined, flags: { json?: boolean }) => module.templatesListCommand(site, flags)));
  templates
    .command('show')
    .description(
      "one version of a site's templates in full (the current one by default): per page type its URL patterns, when and from how many pages it was prepared, what it changed, its health, and per layout the block paths it keeps and what it drops",
    )
    .argument('<site>')
    .option('--page-type <type>', 'only this page type (as `templates list` names it)')
    .option('--version <n>', "this version of the site's templates (default: the current one)", positiveInteger)
    .option('--json', 'print JSON')
    .action(lazy(templateCommands, (module) => module.templatesShowCommand));
  templates
    .command('diff')
    .description("what changed in a site's templates between two versions, per page type: content paths added and removed, and the other fields that differ")
    .argument('<site>')
    .argument('<from>', 'the version compared with', positiveInteger)
    .argument('[to]', 'the version compared (default: the current one)', positiveInteger)
    .option('--page-type <type>', 'only this page type (as `templates list` names it)')
    .option('--json', 'print JSON')
    .action(lazy(templateCommands, (module) => module.templatesDiffCommand));
  templates
    .command('health')
    .description(
      "a site's page types' health over time, newest first: pages read, share read alone, words kept (recorded by a templater run when they changed)",
    )
    .argument('<site>')
    .option('--since <time>', 'only records from this ISO 8601 date (2026-05-01) or time with its zone (2026-05-01T12:00:00Z) on')
    .option('--page <n>', 'page of the listing, from 1', positiveInteger)
    .option('--size <n>', `records per page (at most ${MAX_PAGE_SIZE}; default 50)`, pageSize)
    .option('--json', 'print JSON')
    .action(
      lazy(
        templateCommands,
        (module) => (site: string, flags: { since?: string; page?: number; size?: number; json?: boolean }) => module.templatesHealthCommand(site, flags),
      ),
    );

  program
    .command('extract')
    .description(
      "read one page on its own (no template, no database) and print its main text: a URL, fetched under the crawler's network policy, or a file (- for stdin)",
    )
    .argument('<url-or-file>')
    .option('--method <name>', 'the single-page method (default: WINNOW_FALLBACK_METHOD, reader)')
    .option('--allow-private', 'let a URL be on this machine or a private network (cloud metadata addresses stay refused)')
    .option('--json', 'print the reading as JSON: source, title, method, words, warnings, text')
    .action(
      lazy(
        () => import('./commands/extract.js'),
        (module) => module.extractCommand,
      ),
    );

  program
    .command('search')
    .description('search the index: "quoted words" are an exact phrase, other words must all occur')
    .argument('<query>')
    .option('--site <name>', 'only this site')
    .option('--page <n>', 'result page, from 1', positiveInteger)
    .option('--size <n>', `hits per page (at most ${MAX_PAGE_SIZE}; default 10)`, pageSize)
    .option('--json', 'print JSON')
    .action(
      lazy(operate, (module) => (query: string, flags: { site?: string; page?: number; size?: number; json?: boolean }) => module.searchCommand(query, flags)),
    );

  program
    .command('status')
    .description('pages per site and stage, queues, failed jobs and pages')
    .option('--json', 'print JSON')
    .action(lazy(operate, (module) => module.statusCommand));

  program
    .command('export')
    .description(
      "a site's extracted pages (url, headline as title, page title, main text, method, template version, extracted_at) as JSON lines or CSV, or its fetches as a WARC file",
    )
    .argument('<site>')
    .addOption(new Option('--format <format>', 'jsonl, csv or warc (a .warc.gz: gzip members)').choices(EXPORT_FORMATS).default('jsonl'))
    .option('--output <file>', 'write to this file instead of stdout')
    .action(
      lazy(
        () => import('./commands/export.js'),
        (module) => module.exportCommand,
      ),
    );

  const methodOption = new Option('--method <name>', 'the extraction method scored (not with --replay)');
  const evaluate = program
    .command('eval')
    .description(
      'score an extraction method on gold-annotated pages (pages.jsonl.gz files); with --replay, crawl a dataset served as websites and search what was indexed (docs/replay.md)',
    )
    .option('--data <file-or-dir>', 'a pages.jsonl.gz file, or a folder searched for them')
    .option('--demo', 'use the bundled demo corpus instead of --data')
    .addOption(methodOption)
    .option(
      '--min-pages-per-site <n>',
      'only sites with at least this many pages (default: 10 for template methods and --replay, 1 for single-page ones)',
      positiveInteger,
    )
    .option('--folds <k>', 'template methods: folds per site (prepare on k-1, extract the held-out one)', positiveInteger, 5)
    .option('--json', 'print one JSON object instead of a table')
    .option('--predictions <file>', 'also write one JSON line per scored page: {"id","site","text"}')
    .option('--replay <dataset>', 'a dataset folder or pages.jsonl.gz, or its name under --datasets: replay its multi-page sites through the embedded product')
    .option('--datasets <dir>', '--replay: the folder of the shared datasets', '../shared/datasets')
    .option('--sites <names>', '--replay: only these sites (comma-separated)', (value) => value.split(',').map((site) => site.trim()))
    .option('--limit <n>', '--replay: at most this many sites', positiveInteger)
    .option('--max-pages <n>', "--replay: each site's maxPages", positiveInteger, 1000)
    .addOption(new Option('--paths <rule>', '--replay: paths of pages without a URL').choices(['canonical', 'flat', 'id']).default('canonical'))
    .option('--rewrite-charset', "--replay: rewrite the pages' <meta charset> to utf-8")
    .option('--no-kfold', '--replay: skip the k-fold pipeline evaluation of the same pages')
    .option('--search <n>', '--replay: phrases of each kind per site to search (0: none)', nonNegativeInteger, 40)
    .option('--search-seed <seed>', '--replay: the phrase sample seed', '1')
    .option('--timeout-s <s>', '--replay: report a pipeline not idle by then as far as it got', positiveInteger, 1800)
    .option('--report <file>', '--replay: also write the JSON report to this file')
    .option('--verbose', '--replay: every miss and every page')
    .action(
      lazy(
        () => import('./commands/eval.js'),
        (module) => module.evalCommand,
      ),
    );

  program
    .command('report')
    .description('every method on every dataset: writes the evaluation table and an F1-against-time plot (pnpm eval:report)')
    .option('--data <dir>', 'folder of datasets (each a folder with pages.jsonl.gz)', '../shared/datasets')
    .option('--out <file>', 'the Markdown report', 'docs/evaluation.md')
    .option('--plot <file>', 'the SVG plot', 'docs/evaluation.svg')
    .option('--jobs <n>', 'evaluations run at a time, each in its own process', positiveInteger, 2)
    .option('--sections <names>', 'regenerate only these sections (replay, wcxb) of the existing --out, in place', (value) =>
      value.split(',').map((section) => {
        if (section !== 'replay' && section !== 'wcxb') throw new InvalidArgumentError('expected replay and/or wcxb, comma-separated');
        return section;
      }),
    )
    .option('--methods <names>', 'only these methods (comma-separated)', (value) => value.split(',').map((method) => method.trim()))
    .action(
      lazy(
        () => import('./commands/report.js'),
        (module) => module.reportCommand,
      ),
    );

  /** The capacity bench's parts (`CAPACITY_PARTS` of @winnow/bench, which loads only when a bench runs). */
  const CAPACITY_PARTS = ['redis', 'objectStore', 'elasticsearch', 'frontier', 'crawler'];
  const bench = program.command('bench').description('speed benchmarks, as ratios against a baseline run in the same process');
  bench
    .command('index')
    .description('documents/s into a real Elasticsearch (ELASTICSEARCH_URL, else a local node): bulk helper against one request per document')
    .option('--documents <n>', 'demo documents to write', positiveInteger, 10_000)
    .option('--batch <n>', "documents per bulk batch (the indexer's WINNOW_INDEX_BATCH_SIZE)", positiveInteger, 200)
    .action(
      lazy(
        () => import('@winnow/bench'),
        (module) => module.benchIndexCommand,
      ),
    );
  bench
    .command('crawl')
    .description('the pipeline against a bare crawler on a generated site (20-50 ms per answer): pages/s, ratios, two crawlers, a killed crawler, Crawl-delay')
    .option('--pages <n>', 'articles of the generated site', positiveInteger, 2000)
    .option('--concurrency <n>', 'requests in flight per crawler', positiveInteger, 8)
    .option('--json', 'print one JSON object')
    .action(
      lazy(
        () => import('@winnow/bench'),
        (module) => module.benchCrawlCommand,
      ),
    );
  bench
    .command('cli')
    .description(
      'how long winnow takes to answer, against bare node (node -e 0): --help, status and sites list embedded on a data directory the demo filled, status through a running winnow up',
    )
    .option('--runs <n>', 'timed runs of each command (the median is kept)', positiveInteger, 5)
    .option('--articles <n>', 'demo articles per site in the prepared data directory', positiveInteger, 10)
    .option('--json', 'print one JSON object')
    .action(
      lazy(
        () => import('@winnow/bench'),
        (module) => module.benchCliCommand,
      ),
    );
  bench
    .command('capacity')
    .description(
      'per-unit costs for docs/capacity.md: Redis bytes per queued job and per paced host, WARC bytes per page, Elasticsearch docs/s, bytes per document and search load against _search, the frontier at scale',
    )
    .option('--pages <dir>', 'a dataset folder whose pages stand for fetched pages', '../shared/datasets/dragnet')
    .option('--jobs <n>', 'jobs queued and hosts paced to measure Redis memory', positiveInteger, 20_000)
    .option('--documents <n>', 'demo documents indexed into one local Elasticsearch node', positiveInteger, 100_000)
    .option('--searches <n>', 'searches per concurrency level, each way', positiveInteger, 2_000)
    .option('--elasticsearch-home <dir>', "keep the Elasticsearch node's data here: a later run that finds the documents loaded skips the load")
    .option('--crawl-hosts <n>', 'hosts one crawler process crawls at once (generated sites on 127.0.0.1)', positiveInteger, 200)
    .option('--pages-per-host <n>', 'articles of each host', positiveInteger, 20)
    .option('--host-delay-ms <n>', 'least time between two requests to one host', positiveInteger, 1000)
    .option('--crawl-concurrency <n>', 'requests in flight in the crawler process (WINNOW_CRAWL_CONCURRENCY)', positiveInteger, 128)
    .option('--only <parts>', `only these parts, comma-separated: ${CAPACITY_PARTS.join(', ')}`, (value) =>
      value.split(',').map((part) => {
        if (!CAPACITY_PARTS.includes(part)) throw new InvalidArgumentError(`expected some of ${CAPACITY_PARTS.join(', ')}, comma-separated`);
        return part;
      }),
    )
    .option('--postgres <url>', 'the Postgres server', 'postgres://postgres@127.0.0.1:5432/postgres')
    .option('--database <name>', "the frontier bench's own database, reused across runs", 'winnow_bench_frontier')
    .option('--urls <n>', 'URLs in the frontier', positiveInteger, 10_000_000)
    .option('--hosts <n>', 'hosts they belong to', positiveInteger, 100_000)
    .option('--batch <n>', 'URLs per lease', positiveInteger, 100)
    .option('--rounds <n>', 'leases timed', positiveInteger, 100)
    .option('--holders <n>', 'other processes holding a batch while one renews', positiveInteger, 16)
    .option('--json', 'print one JSON object on one line')
    .action(
      lazy(
        () => import('@winnow/bench'),
        (module) => module.benchCapacityCommand,
      ),
    );
  bench
    .command('frontier')
    .description('the Postgres frontier at scale: lease, complete and renew URLs/s of one crawler process over millions of URLs (loaded once into --database)')
    .option('--postgres <url>', 'the Postgres server', 'postgres://postgres@127.0.0.1:5432/postgres')
    .option('--database <name>', "the bench's own database, reused across runs", 'winnow_bench_frontier')
    .option('--urls <n>', 'URLs in the frontier', positiveInteger, 10_000_000)
    .option('--hosts <n>', 'hosts they belong to', positiveInteger, 100_000)
    .option('--batch <n>', 'URLs per lease', positiveInteger, 100)
    .option('--rounds <n>', 'leases timed', positiveInteger, 100)
    .option('--holders <n>', 'other processes holding a batch while one renews', positiveInteger, 16)
    .option('--json', 'print one JSON object')
    .action(
      lazy(
        () => import('@winnow/bench'),
        (module) => module.benchFrontierCommand,
      ),
    );
  bench
    .command('extract')
    .description('detection ms/page of every template method on the same pages, and CE against FastCE on 10-300 pages of a site')
    .option('--data <dir>', 'folder of the datasets (daniel, dragnet, cleanportaleval); without them the demo corpus is used', '../shared/datasets')
    .option('--repeat <n>', 'timed passes over the pages (the fastest is kept)', positiveInteger, 3)
    .action(
      lazy(
        () => import('@winnow/eval'),
        (module) => (flags: { data: string; repeat: number }) => module.benchExtract({ ...flags, write: (text) => process.stdout.write(text) }),
      ),
    );

  // The method names come from the extraction core's table of methods, which loads every method:
  // `winnow eval` loads it anyway, so its help names them, and the command table does not.
  program.hook('preSubcommand', async (_program, command) => {
    if (command !== evaluate) return;
    const { EVAL_METHOD_NAMES } = await import('@winnow/eval');
    methodOption.description = `one of: ${EVAL_METHOD_NAMES.join(', ')} (not with --replay)`;
  });

  formatUsageErrors(program);
  return program;
}

/** Help that commander printed on request, or because a command group was called without a command: not a usage error. */
function isHelp(error: CommanderError): boolean {
  return ['commander.help', 'commander.helpDisplayed', 'commander.version'].includes(error.code);
}

/**
 * A mistake commander finds (an unknown option, a bad value, a missing argument) is told as every
 * other error of the command line is (`winnow: …`, `main.ts`), not as commander's `error: …`, with
 * one line under it naming the command's `--help`: the whole help would bury the error.
 */
function formatUsageErrors(command: Command): void {
  command.showHelpAfterError(`(see \`${commandPath(command)} --help\`)`);
  command.configureOutput({ outputError: (text, write) => write(text.replace(/^error: /, 'winnow: ')) });
  for (const subcommand of command.commands) formatUsageErrors(subcommand);
}

/** `winnow sites add`: the command's name after those of the commands it belongs to. */
function commandPath(command: Command): string {
  return command.parent ? `${commandPath(command.parent)} ${command.name()}` : command.name();
}

/**
 * The settings of a site's configuration that `sites add` sets and `sites update` changes, each
 * with a default (the seeds have none), declared once for both. Each flag's attribute is its
 * configuration key, but `--allow-private`'s (commands/operate.ts maps it to `allowPrivateAddresses`).
 */
function siteSettings(): Option[] {
  return [
    new Option('--allow <glob...>', "URL globs the crawl may follow (default: everything under the seeds' origins)"),
    new Option(
      '--max-pages <n>',
      withSiteDefault(
        'URLs a crawl admits at most through links and sitemaps (sitemaps themselves aside): each counts once admitted, stored or not (redirects, refused, disallowed and failed URLs too); a recrawl also revisits every stored page no link reached, outside this budget',
        'maxPages',
      ),
    ).argParser(positiveInteger),
    new Option('--max-depth <n>', withSiteDefault('links followed from a seed', 'maxDepth')).argParser(nonNegativeInteger),
    new Option('--concurrency <n>', withSiteDefault('requests to one host in flight at once, across every crawler process', 'concurrency')).argParser(
      positiveInteger,
    ),
    new Option('--delay-ms <n>', withSiteDefault("least time between two requests to one host (robots.txt's Crawl-delay can raise it)", 'delayMs')).argParser(
      nonNegativeInteger,
    ),
    new Option('--render <how>', withSiteDefault('http or browser', 'render')),
    new Option('--min-template-pages <n>', withSiteDefault('pages a page type needs before it gets a template', 'minTemplatePages')).argParser(positiveInteger),
    new Option('--template-every-ms <n>', withSiteDefault('template preparation schedule; 0 turns it off', 'templateEveryMs')).argParser(nonNegativeInteger),
    new Option('--allow-private', 'the site is on a private network: let the crawler connect to loopback and private addresses'),
    new Option('--sitemaps', "also start from the sitemaps robots.txt names and each seed origin's /sitemap.xml"),
    new Option('--max-sitemaps <n>', withSiteDefault('sitemap files a crawl fetches at most', 'maxSitemaps')).argParser(positiveInteger),
    new Option(
      '--recrawl-every-ms <n>',
      withSiteDefault('crawl the site again this often (conditional requests); 0: only on request', 'recrawlEveryMs'),
    ).argParser(nonNegativeInteger),
    new Option(
      '--max-pages-per-pattern <n>',
      withSiteDefault('pages of one URL pattern a crawl admits at most (a trap guard); 0: no cap', 'maxPagesPerPattern'),
    ).argParser(nonNegativeInteger),
  ];
}

/**
 * A setting's description with its default, the one the site schema in packages/config applies,
 * as commander words its own defaults. Not commander's `default()`: that would make `sites update`
 * set every setting it was not given.
 */
function withSiteDefault(description: string, setting: keyof typeof SITE_DEFAULTS): string {
  return `${description} (default: ${SITE_DEFAULTS[setting]})`;
}

/** `--reset`'s parser: settings named by their flags (`max-pages`), as the attributes those flags set (`maxPages`). */
function settingNames(settings: readonly Option[]) {
  const setting = (flag: string): string => {
    const option = settings.find((candidate) => candidate.name() === flag);
    if (flag === 'seed') throw new InvalidArgumentError('"seed" cannot be reset: a site needs at least one seed URL (--seed replaces them)');
    if (!option)
      throw new InvalidArgumentError(`"${flag}" is not a setting with a default; those are: ${settings.map((candidate) => candidate.name()).join(', ')}`);
    return option.attributeName();
  };
  return (value: string, previous: string[] = []): string[] => [...previous, ...list(value).map(setting)];
}

/** A repeatable, comma-separated option: every value given, in order (the operation checks them). */
function list(value: string, previous: string[] = []): string[] {
  return [...previous, ...value.split(',').map((item) => item.trim())].filter((item) => item !== '');
}

export function positiveInteger(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new InvalidArgumentError('expected a positive integer');
  return number;
}

/**
 * A page's URL: absolute and http(s), as the crawler stores every page's. A relative path names no
 * page of any site, so it is a mistake in the call, not a page that is missing.
 */
function pageUrl(value: string): string {
  const protocol = URL.canParse(value) ? new URL(value).protocol : '';
  if (protocol !== 'http:' && protocol !== 'https:') throw new InvalidArgumentError('expected an absolute http(s) URL, such as https://example.com/a');
  return value;
}

/** A listing's page size, 1 to `MAX_PAGE_SIZE` as every listing takes. */
function pageSize(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1 || number > MAX_PAGE_SIZE) throw new InvalidArgumentError(`expected an integer from 1 to ${MAX_PAGE_SIZE}`);
  return number;
}

export function nonNegativeInteger(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0) throw new InvalidArgumentError('expected a non-negative integer');
  return number;
}

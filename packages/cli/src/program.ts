import { Command, InvalidArgumentError } from 'commander';
import { DEMO_SITE_NAMES } from '@winnow/demo-corpus';
import { benchExtract } from '@winnow/eval';
import { METHOD_NAMES } from '@winnow/extract';
import { evalCommand } from './commands/eval.js';
import { demoCommand } from './commands/demo.js';

/** The `winnow` command line; built without running, so tests can drive the real program. */
export function buildProgram(): Command {
  const program = new Command('winnow')
    .description('Winnow: learn where a site keeps its main text and extract it in document order')
    .showHelpAfterError()
    .exitOverride((error) => {
      if (error.exitCode !== 0) process.exitCode = error.exitCode;
      throw error;
    });

  program
    .command('demo')
    .description('learn a FastCE template from sample pages of the bundled demo site and print the clean text of a page it has not seen')
    .option('--site <name>', `demo site: ${DEMO_SITE_NAMES.join(', ')}`, 'gazette')
    .option('--pages <n>', 'sample pages to learn the template from', positiveInteger, 24)
    .option('--show-template', 'also print the learned template as JSON on stderr')
    .action(demoCommand);

  program
    .command('eval')
    .description('score an extraction method on gold-annotated pages (pages.jsonl.gz files)')
    .option('--data <file-or-dir>', 'a pages.jsonl.gz file, or a folder searched for them')
    .option('--demo', 'use the bundled demo corpus instead of --data')
    .requiredOption('--method <name>', `one of: ${METHOD_NAMES.join(', ')}`)
    .option('--min-pages-per-site <n>', 'only sites with at least this many pages (default: 10 for template methods, 1 for single-page ones)', positiveInteger)
    .option('--folds <k>', 'template methods: folds per site (prepare on k-1, extract the held-out one)', positiveInteger, 5)
    .option('--json', 'print one JSON object instead of a table')
    .option('--predictions <file>', 'also write one JSON line per scored page: {"id","site","text"}')
    .action(evalCommand);

  program
    .command('bench')
    .description('speed benchmarks, as ratios against a baseline run in the same process')
    .command('extract')
    .description('detection ms/page of every template method on the same pages, and CE against FastCE on 10-300 pages of a site')
    .option('--data <dir>', 'folder of the datasets (daniel, dragnet, cleanportaleval); without them the demo corpus is used', '../shared/datasets')
    .option('--repeat <n>', 'timed passes over the pages (the fastest is kept)', positiveInteger, 3)
    .action((flags: { data: string; repeat: number }) => benchExtract({ ...flags, write: (text) => process.stdout.write(text) }));

  return program;
}

export function positiveInteger(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new InvalidArgumentError('expected a positive integer');
  return number;
}

#!/usr/bin/env node
import { CommanderError } from 'commander';
import { buildProgram } from './program.js';
import { tolerateClosedStdout } from './stdout.js';
import { USAGE_EXIT_CODE, UsageError } from './usageError.js';

tolerateClosedStdout();

try {
  await buildProgram().parseAsync(process.argv);
} catch (error) {
  if (!(error instanceof CommanderError)) {
    process.stderr.write(`winnow: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = error instanceof UsageError ? USAGE_EXIT_CODE : 1;
  }
}

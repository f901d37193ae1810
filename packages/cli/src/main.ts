#!/usr/bin/env node
import { CommanderError } from 'commander';
import { buildProgram } from './program.js';
import { UsageError } from './usageError.js';

try {
  await buildProgram().parseAsync(process.argv);
} catch (error) {
  if (!(error instanceof CommanderError)) {
    process.stderr.write(`winnow: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = error instanceof UsageError ? 2 : 1;
  }
}

#!/usr/bin/env node
import { CommanderError } from 'commander';
import { buildProgram } from './program.js';

try {
  await buildProgram().parseAsync(process.argv);
} catch (error) {
  if (!(error instanceof CommanderError)) {
    process.stderr.write(`winnow: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}

#!/usr/bin/env node
import { CommanderError } from 'commander';
import { WinnowError } from '@winnow/config/errors';
import { ApiError } from './apiClient.js';
import { buildProgram } from './program.js';
import { tolerateClosedStdout } from './stdout.js';
import { USAGE_EXIT_CODE, UsageError } from './usageError.js';

tolerateClosedStdout();

try {
  await buildProgram().parseAsync(process.argv);
} catch (error) {
  if (!(error instanceof CommanderError)) {
    process.stderr.write(`winnow: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = isUsageError(error) ? USAGE_EXIT_CODE : 1;
  }
}

/**
 * A mistake in how the command was called, whoever found it: the command itself, the operation it
 * ran (a bad value: an unknown outcome, a date that is not one, a query with no words, a site
 * setting the schema refuses) or the API it asked (400).
 */
function isUsageError(error: unknown): boolean {
  if (error instanceof UsageError) return true;
  if (error instanceof WinnowError) return error.code === 'invalid-input';
  return error instanceof ApiError && error.status === 400;
}

import type { Env } from '@winnow/config';
import { pino, type Logger } from 'pino';

/**
 * The logger of a server or worker: pino, one JSON object a line on stderr, at `WINNOW_LOG_LEVEL`.
 * `name` says which process wrote the line (`crawler`, `winnow` for `winnow up`).
 */
export function createLogger(env: Env, name: string): Logger {
  return pino({ name, level: env.WINNOW_LOG_LEVEL }, pino.destination(2));
}

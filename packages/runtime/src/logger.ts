import type { Env } from '@winnow/config';
import { type DestinationStream, pino, type Logger } from 'pino';

/**
 * The logger of a server or worker: pino, one JSON object a line on stderr (or `destination`), at
 * `WINNOW_LOG_LEVEL`. `name` says which process wrote the line (`crawler`, `winnow` for `winnow up`).
 */
export function createLogger(env: Env, name: string, destination: DestinationStream = pino.destination(2)): Logger {
  return pino({ name, level: env.WINNOW_LOG_LEVEL, serializers: { err: serializeError } }, destination);
}

/**
 * pino's error serializer without the `client` that pg-pool pins on the error of an idle
 * connection (a Postgres restart): the whole connection's state, kilobytes on one log line.
 */
function serializeError(error: Error): ReturnType<typeof pino.stdSerializers.err> {
  const serialized = pino.stdSerializers.err(error);
  if (serialized === null || typeof serialized !== 'object' || !('client' in serialized)) return serialized;
  const { client: _client, ...rest } = serialized;
  return rest as ReturnType<typeof pino.stdSerializers.err>;
}

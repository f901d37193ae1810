import { WinnowError } from './errors.js';

/*
 * The settings a command sent to a running API reads (`WINNOW_API_URL`, `WINNOW_API_TOKEN`), apart
 * from the rest of the configuration (`env.ts`): `winnow status` through an API loads this module
 * alone, without zod (some 100 modules, a third of such a command's start). The rules are written
 * once, here, as plain checks; `ENV_SCHEMA` wraps the same checks for the whole configuration.
 */

/**
 * What an API token lets its bearer do: `search` only searches; `metrics` only reads `/metrics` (a
 * Prometheus scraper's); `operate` does everything.
 */
export type TokenScope = 'search' | 'metrics' | 'operate';

export interface ApiToken {
  scope: TokenScope;
  token: string;
}

/** Shorter tokens are refused: a bearer token is the only thing between the network and the pipeline. */
export const MIN_TOKEN_LENGTH = 16;

/** A setting's value as read, or what is wrong with it (each problem at the path under the variable it concerns). */
export interface Checked<Value> {
  value: Value;
  problems: { path: (string | number)[]; message: string }[];
}

/** A comma-separated list; unset or empty is an empty list. */
export function splitList(text: string | undefined): string[] {
  return (text ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** A URL with one of `protocols`; unset or empty is no URL. */
export function checkUrl(text: string | undefined, protocols: readonly string[]): Checked<string | undefined> {
  if (text === undefined || text === '') return { value: undefined, problems: [] };
  const fine = URL.canParse(text) && protocols.includes(new URL(text).protocol);
  return { value: text, problems: fine ? [] : [{ path: [], message: `must be a URL (${protocols.join(' or ')})` }] };
}

/**
 * `WINNOW_API_TOKEN`: comma-separated tokens, each `scope:token` (`search:…`, `operate:…`); a token
 * without a scope is an `operate` token. A word before a colon that is no scope (`serach:…`,
 * `admin:…`) is refused: read as part of an `operate` token, a misspelled search-only token would
 * grant everything. No problem repeats a token: the message may be logged.
 */
export function checkApiTokens(text: string | undefined): Checked<ApiToken[]> {
  const problems: Checked<ApiToken[]>['problems'] = [];
  const value = splitList(text).map((entry, index): ApiToken => {
    const match = /^(search|metrics|operate):(.*)$/.exec(entry);
    const token = match ? (match[2] as string) : entry;
    const unknownScope = match ? undefined : /^([A-Za-z]+):/.exec(entry)?.[1];
    if (unknownScope !== undefined) {
      problems.push({
        path: [index],
        message: `unknown token scope "${unknownScope}": each token is search:<token>, metrics:<token>, operate:<token> or <token> (operate)`,
      });
    } else if (token.length < MIN_TOKEN_LENGTH || /[\s,]/.test(token)) {
      problems.push({ path: [index], message: `each token must be at least ${MIN_TOKEN_LENGTH} characters without spaces or commas` });
    }
    return { scope: (match?.[1] as TokenScope | undefined) ?? 'operate', token };
  });
  return { value, problems };
}

/** The API a command is sent to, and the tokens it may send (their scopes picked per request). */
export interface ApiEnv {
  WINNOW_API_TOKEN: ApiToken[];
  WINNOW_API_URL: string | undefined;
}

/** The protocols `WINNOW_API_URL` may use. */
export const API_URL_PROTOCOLS = ['http:', 'https:'] as const;

/**
 * A deployment's configuration refused at start-up: input the operator corrects, so it is said in
 * one line (each bad variable named) and the process exits 2 without a stack trace, as a usage
 * error does (`runStandalone`, the CLI's `main`).
 */
export class ConfigError extends WinnowError {
  override readonly name = 'ConfigError';
  constructor(message: string) {
    super('invalid-input', message);
  }
}

/** The API settings of `source` (`WINNOW_API_URL`, `WINNOW_API_TOKEN`), checked as `loadEnv` checks them. */
export function loadApiEnv(source: NodeJS.ProcessEnv = process.env): ApiEnv {
  const tokens = checkApiTokens(source.WINNOW_API_TOKEN);
  const apiUrl = checkUrl(source.WINNOW_API_URL, API_URL_PROTOCOLS);
  const problems = [
    ...tokens.problems.map((problem) => ({ ...problem, path: ['WINNOW_API_TOKEN', ...problem.path] })),
    ...apiUrl.problems.map((problem) => ({ ...problem, path: ['WINNOW_API_URL', ...problem.path] })),
  ];
  if (problems.length > 0) throw new ConfigError(`invalid configuration: ${problems.map(({ path, message }) => `${path.join('.')}: ${message}`).join('; ')}`);
  return { WINNOW_API_TOKEN: tokens.value, WINNOW_API_URL: apiUrl.value };
}

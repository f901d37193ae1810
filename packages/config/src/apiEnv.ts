import { z } from 'zod';
import { WinnowError } from './errors.js';

/*
 * The settings a command sent to a running API reads (`WINNOW_API_URL`, `WINNOW_API_TOKEN`), apart
 * from the rest of the configuration (`env.ts`), whose schema loads the extraction core to check
 * method names: `winnow status` through an API loads this alone. `ENV_SCHEMA` holds the same fields.
 */

export const url = (protocols: readonly string[]) =>
  z.preprocess(
    (value) => (value === '' ? undefined : value),
    z
      .string()
      .refine((text) => URL.canParse(text) && protocols.includes(new URL(text).protocol), { message: `must be a URL (${protocols.join(' or ')})` })
      .optional(),
  );

/** A comma-separated list; unset or empty is an empty list. */
export const list = z.preprocess(
  (value) =>
    typeof value === 'string'
      ? value
          .split(',')
          .map((item) => item.trim())
          .filter((item) => item !== '')
      : [],
  z.array(z.string()),
);

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

/**
 * `WINNOW_API_TOKEN`: comma-separated tokens, each `scope:token` (`search:…`, `operate:…`); a token
 * without a scope is an `operate` token. A word before a colon that is no scope (`serach:…`,
 * `admin:…`) is refused: read as part of an `operate` token, a misspelled search-only token would
 * grant everything.
 */
const apiTokens = list.pipe(
  z.array(
    z.string().transform((entry, context): ApiToken => {
      const match = /^(search|metrics|operate):(.*)$/.exec(entry);
      const token = match ? (match[2] as string) : entry;
      const unknownScope = match ? undefined : /^([A-Za-z]+):/.exec(entry)?.[1];
      if (unknownScope !== undefined) {
        context.addIssue({
          code: 'custom',
          message: `unknown token scope "${unknownScope}": each token is search:<token>, metrics:<token>, operate:<token> or <token> (operate)`,
        });
      } else if (token.length < MIN_TOKEN_LENGTH || /[\s,]/.test(token)) {
        context.addIssue({ code: 'custom', message: `each token must be at least ${MIN_TOKEN_LENGTH} characters without spaces or commas` });
      }
      return { scope: (match?.[1] as TokenScope | undefined) ?? 'operate', token };
    }),
  ),
);

/** The API a command is sent to, and the tokens it may send (their scopes picked per request). */
export const API_ENV_SCHEMA = z.object({
  WINNOW_API_TOKEN: apiTokens,
  WINNOW_API_URL: url(['http:', 'https:']),
});

export type ApiEnv = z.infer<typeof API_ENV_SCHEMA>;

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

/** Parses the variables `schema` names from `source`; every problem is named in one `ConfigError`. */
export function parseEnv<Schema extends z.ZodObject>(schema: Schema, source: NodeJS.ProcessEnv): z.infer<Schema> {
  const picked = Object.fromEntries(Object.keys(schema.shape).map((name) => [name, source[name]]));
  const parsed = schema.safeParse(picked);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
  }
  return parsed.data;
}

/** The API settings of `source` (`WINNOW_API_URL`, `WINNOW_API_TOKEN`), checked as `loadEnv` checks them. */
export function loadApiEnv(source: NodeJS.ProcessEnv = process.env): ApiEnv {
  return parseEnv(API_ENV_SCHEMA, source);
}

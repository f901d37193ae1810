import { createHash, timingSafeEqual } from 'node:crypto';
import type { ApiToken, TokenScope } from '@winnow/config';
import { RequestRefusedError } from './errors.js';

/**
 * What a route needs: `probe` is open to anyone (liveness and readiness, for orchestrators);
 * `search` needs a search or operate token once any token is configured, and so does `metrics`
 * with a metrics or operate token (a scraper's token reads metrics and nothing else); `operate`
 * always needs an operate token. A route that says nothing is `operate`, so a new route is closed
 * until opened. While no token is configured, the API listens on loopback only (`startApi`), and
 * search and metrics are open there. `asset` is the console's own files (its page, script and
 * style, which hold no data): open to a browser that names the API in its `Host`, so that the
 * console's sign-in page can load; everything the console shows comes from token-guarded routes.
 */
export type Access = 'probe' | 'asset' | TokenScope;

/** The scopes whose tokens a route of each access accepts: an operate token may also search. */
const SCOPES_FOR: Record<TokenScope, readonly TokenScope[]> = {
  search: ['search', 'operate'],
  metrics: ['metrics', 'operate'],
  operate: ['operate'],
};

const CHALLENGE = 'Bearer realm="winnow"';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/**
 * Checks a request's `Authorization: Bearer <token>` against the configured tokens and throws the
 * refusal when it does not allow `needed`. Tokens are compared as SHA-256 digests with
 * `timingSafeEqual`, every configured token each time, so the time taken tells nothing about how
 * much of a token an attacker has guessed. Tokens never appear in a message.
 */
export function bearerGuard(tokens: readonly ApiToken[]): (authorization: string | undefined, needed: TokenScope) => void {
  const known = tokens.map((token) => ({ scope: token.scope, digest: sha256(token.token) }));
  return (authorization, needed) => {
    if (known.length === 0) {
      if (needed !== 'operate') return;
      throw new RequestRefusedError(
        'no-token-configured',
        'operator endpoints need a bearer token and this API has none: set WINNOW_API_TOKEN (operate:<a long random string>) where the API runs, and send it as Authorization: Bearer <token>',
        CHALLENGE,
      );
    }
    const presented = /^Bearer +(\S+) *$/i.exec(authorization ?? '')?.[1];
    if (presented === undefined) {
      throw new RequestRefusedError('token-missing', 'this endpoint needs a bearer token: send Authorization: Bearer <token>', CHALLENGE);
    }
    const digest = sha256(presented);
    let scope: TokenScope | undefined;
    for (const token of known) if (timingSafeEqual(token.digest, digest)) scope ??= token.scope;
    if (scope === undefined) throw new RequestRefusedError('token-unknown', 'the bearer token is not valid', `${CHALLENGE}, error="invalid_token"`);
    if (!SCOPES_FOR[needed].includes(scope)) {
      throw new RequestRefusedError(
        'scope-insufficient',
        `this endpoint needs a token of scope ${needed}; the token sent has scope ${scope}`,
        `${CHALLENGE}, error="insufficient_scope", scope="${needed}"`,
      );
    }
  };
}

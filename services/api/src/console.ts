import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { SCHEMAS } from './schemas.js';

/**
 * The web console: one page, its script and its style, served by the API from `console/` and
 * read once at start. They hold no data and need no token (`asset`); the script asks the
 * token-guarded routes for everything, with the operate token the user signs in with.
 */
const FILES = {
  '/console/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/console/console.js': { file: 'console.js', type: 'text/javascript; charset=utf-8' },
  '/console/console.css': { file: 'console.css', type: 'text/css; charset=utf-8' },
} as const;

/**
 * What the console's pages may do: run the API's own script and call the API, nothing else. No
 * frame is navigated anywhere (`frame-src 'none'`: the inspector's frame is a `srcdoc`, and a link
 * clicked in it goes nowhere), no form posts, and no other site may frame the console.
 */
export const CONSOLE_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-src 'none'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'";

export function declareConsole(api: FastifyInstance): void {
  const asset = { config: { access: 'asset' }, schema: SCHEMAS.console } as const;
  for (const [path, { file, type }] of Object.entries(FILES)) {
    const body = readFileSync(new URL(`../console/${file}`, import.meta.url));
    api.get(path, asset, async (_request, reply) =>
      reply
        .type(type)
        .header('content-security-policy', CONSOLE_POLICY)
        .header('x-content-type-options', 'nosniff')
        .header('referrer-policy', 'no-referrer')
        .header('cache-control', 'no-store')
        .send(body),
    );
  }
  api.get('/', asset, async (_request, reply) => reply.redirect('/console/'));
  api.get('/console', asset, async (_request, reply) => reply.redirect('/console/'));
}

import type { Env } from '@winnow/config';
import { announceApi, apiUrlFor, type Runtime, type Service } from '@winnow/runtime';
import { buildApi } from './app.js';
import { isLoopbackHost } from './hosts.js';

export { buildApi, type ApiAddress } from './app.js';
export type { Access } from './auth.js';

export interface ApiService extends Service {
  /** The address the server listens on, e.g. `http://127.0.0.1:8080`. */
  readonly url: string;
}

/** The API would listen where others can reach it with nothing to keep them from operating the pipeline. */
export class UnprotectedApiError extends Error {
  override readonly name = 'UnprotectedApiError';
}

/**
 * Refuses an API that would listen on an address other machines can reach (anything but
 * `localhost`, 127.0.0.0/8 and ::1) while no token is configured. A command that serves the API
 * asks this before it opens anything, so that the refusal is the first thing the operator reads.
 */
export function refuseUnprotectedApi(env: Pick<Env, 'WINNOW_API_HOST' | 'WINNOW_API_TOKEN'>, host = env.WINNOW_API_HOST): void {
  if (!isLoopbackHost(host) && env.WINNOW_API_TOKEN.length === 0) {
    throw new UnprotectedApiError(
      `refusing to serve the API on ${host} without a token: WINNOW_API_HOST is not a loopback address, so set WINNOW_API_TOKEN (operate:<a long random string>) or WINNOW_API_HOST=127.0.0.1`,
    );
  }
}

/** What an API without an operate token cannot do: said however the API is started (`winnow up`, `winnow worker api`, its service). */
export const NO_OPERATE_TOKEN = 'no operate token (WINNOW_API_TOKEN=operate:<token>): the operator routes answer 401 and the console cannot sign in';

/** Builds the API and listens, once `refuseUnprotectedApi` lets it; warns when no token may operate. */
export async function startApi(rt: Runtime, port = rt.env.WINNOW_API_PORT, host = rt.env.WINNOW_API_HOST): Promise<ApiService> {
  refuseUnprotectedApi(rt.env, host);
  const app = buildApi(rt, { host, port });
  const url = await app.listen({ port, host });
  rt.log.info({ url }, 'api listening');
  if (!rt.env.WINNOW_API_TOKEN.some((token) => token.scope === 'operate')) rt.log.warn(NO_OPERATE_TOKEN);
  // Port 0 listens on a port chosen now: the note names the one bound.
  const bound = app.server.address();
  announceApi(rt, apiUrlFor(host, bound !== null && typeof bound === 'object' ? bound.port : port));
  return { url, metricsUrl: `${url}/metrics`, close: () => app.close() };
}

import type { Runtime, Service } from '@winnow/runtime';
import { buildApi } from './app.js';

export { buildApi } from './app.js';

export interface ApiService extends Service {
  /** The address the server listens on, e.g. `http://127.0.0.1:8080`. */
  readonly url: string;
}

export async function startApi(rt: Runtime, port = rt.env.WINNOW_API_PORT, host = rt.env.WINNOW_API_HOST): Promise<ApiService> {
  const app = buildApi(rt);
  const url = await app.listen({ port, host });
  rt.log.info({ url }, 'api listening');
  return { url, close: () => app.close() };
}

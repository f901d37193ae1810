// The environment's schema alone: a command's database opens once it is read (`openRuntime`), so sites' and addresses' rules load later.
import { type Env, loadEnv } from '@winnow/config/env';

/**
 * A command's configuration. One-shot commands log warnings only unless `WINNOW_LOG_LEVEL` says
 * otherwise: their own output is what the operator reads. Servers (`winnow up`, `winnow worker`)
 * log at `info` by default, as the services do.
 */
export function commandEnv(overrides: Partial<Record<string, string>> = {}, logLevel: 'warn' | 'info' = 'warn'): Env {
  return loadEnv({ WINNOW_LOG_LEVEL: logLevel, ...process.env, ...overrides });
}

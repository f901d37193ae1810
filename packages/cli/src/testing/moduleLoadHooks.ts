import type { LoadHook } from 'node:module';
import type { MessagePort } from 'node:worker_threads';

/** Module hooks of `recordModules.ts`: each module loaded is posted to its port. */
let port: MessagePort;

export function initialize(data: { port: MessagePort }): void {
  port = data.port;
}

export const load: LoadHook = (url, context, next) => {
  port.postMessage(url);
  return next(url, context);
};

import { register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';
import { MODULES_LINE } from './loadedModules.js';

/**
 * Preloaded (`node --import`) into a command under test: when it exits, writes the URL of every
 * module it loaded to stderr, one line `loaded-modules: [...]`, so that a test can tell what a
 * command loaded without timing it (`loadedModules` reads it back).
 * Importing it is what records: only a command under test preloads it.
 */
const { port1, port2 } = new MessageChannel();
const loaded: string[] = [];
port1.on('message', (url: string) => loaded.push(url));
port1.unref();
register('./moduleLoadHooks.js', import.meta.url, { data: { port: port2 }, transferList: [port2] });
process.on('exit', () => process.stderr.write(`\n${MODULES_LINE}${JSON.stringify(loaded)}\n`));

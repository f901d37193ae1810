/** The line `recordModules.ts` writes to a command's stderr: this prefix, then the URLs as JSON. */
export const MODULES_LINE = 'loaded-modules: ';

/** The modules a command run with `--import recordModules.js` loaded, read from its stderr. */
export function loadedModules(stderr: string): string[] | undefined {
  const line = stderr.split('\n').find((text) => text.startsWith(MODULES_LINE));
  return line === undefined ? undefined : (JSON.parse(line.slice(MODULES_LINE.length)) as string[]);
}

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { CLI_MAIN, freshDataDir } from './testing/embeddedCli.js';
import { loadedModules } from './testing/loadedModules.js';

const RECORD_MODULES = fileURLToPath(new URL('./testing/recordModules.js', import.meta.url));

/** Runs the built CLI with every module it loads recorded; resolves whatever its exit status. */
async function loadedBy(args: string[], dataDir = 'memory'): Promise<{ code: number; stdout: string; modules: string[] }> {
  const env = { ...process.env, WINNOW_DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '', ELASTICSEARCH_URL: '', WINNOW_API_URL: '' };
  const run = promisify(execFile)(process.execPath, ['--import', RECORD_MODULES, CLI_MAIN, ...args], { env });
  const { stdout, stderr, code } = await run.then(
    (done) => ({ ...done, code: 0 }),
    (error: { stdout: string; stderr: string; code: number }) => error,
  );
  const modules = loadedModules(stderr);
  assert.ok(modules, `no list of modules in stderr: ${stderr}`);
  return { code, stdout, modules };
}

/** The packages a list of module URLs comes from: `commander`, `@winnow/runtime` (by its folder: `packages/runtime`). */
function packagesOf(modules: readonly string[]): Set<string> {
  const names = modules
    .filter((url) => url.startsWith('file:'))
    .map(
      (url) =>
        url.match(/node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/)?.[1] ??
        url.match(/\/((?:packages|services)\/[^/]+)\/dist\//)?.[1] ??
        url,
    );
  return new Set(names);
}

/** What the command table may load: commander, the CLI's own modules and the constants it names. */
const COMMAND_TABLE = new Set(['commander', 'packages/cli', 'packages/config', 'packages/storage', 'packages/demo-corpus']);

describe('what a command loads', () => {
  for (const args of [['--help'], ['--version'], ['sites', 'add', '--help'], ['crawl-log', '--help'], ['no-such-command'], ['sites', 'add', 'news']]) {
    it(`winnow ${args.join(' ')} loads only the command table`, async () => {
      const { modules } = await loadedBy(args);
      const outside = [...packagesOf(modules)].filter((name) => !COMMAND_TABLE.has(name));
      assert.deepEqual(outside, []);
      // The constants, not the packages: the schema, the database drivers and the extraction core stay out.
      const winnowModules = modules.filter((url) => /\/packages\/(config|storage)\/dist\//.test(url)).map((url) => url.replace(/.*\/dist\//, ''));
      assert.ok(
        winnowModules.every((file) => ['paging.js', 'siteDefaults.js', 'errors.js', 'outcomes.js'].includes(file)),
        winnowModules.join(', '),
      );
    });
  }

  it('an embedded status loads no browser, Elasticsearch client, S3 SDK, API server or worker, nor the migrations once applied', async () => {
    const dataDir = await freshDataDir('startup');
    assert.equal((await loadedBy(['sites', 'list'], dataDir)).code, 0); // creates and migrates the database
    const { code, modules } = await loadedBy(['status'], dataDir);
    assert.equal(code, 0);
    const loaded = packagesOf(modules);
    for (const name of [
      'playwright-core',
      'playwright',
      'crawlee',
      '@crawlee/core',
      'jsdom',
      '@elastic/elasticsearch',
      '@aws-sdk/client-s3',
      'fastify',
      'umzug',
    ]) {
      assert.ok(!loaded.has(name), `${name} was loaded`);
    }
    for (const service of ['services/api', 'services/crawler', 'services/extractor', 'services/indexer', 'services/templater']) {
      assert.ok(!loaded.has(service), `${service} was loaded`);
    }
  });
});

describe('winnow --version', () => {
  it('prints the version of the package and, in a git checkout, its commit', async () => {
    const { code, stdout } = await loadedBy(['--version']);
    assert.equal(code, 0);
    assert.match(stdout, /^winnow \d+\.\d+\.\d+( \(commit [0-9a-f]{12}\))?\n$/);
  });

  it("leaves a command's own --version to the command", async () => {
    const { code, stdout } = await loadedBy(['templates', 'show', 'tide', '--version', '3']);
    assert.equal(code, 1); // no site named tide in an empty database
    assert.equal(stdout, '');
  });
});

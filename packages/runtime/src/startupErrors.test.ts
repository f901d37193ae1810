import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { test } from 'node:test';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);
const SERVICE_MODULE = new URL('./service.js', import.meta.url).href;

test('a service started with a bad configuration says so in one line and exits 2, without a stack trace', async () => {
  const script = `const { runStandalone } = await import(${JSON.stringify(SERVICE_MODULE)}); await runStandalone('probe', () => []);`;
  await assert.rejects(
    execFileAsync(process.execPath, ['--input-type=module', '-e', script], {
      env: { PATH: process.env.PATH, WINNOW_API_PORT: 'abc', WINNOW_WORKER_PORT: 'lots' },
    }),
    (error: { code?: number; stderr?: string }) => {
      assert.equal(error.code, 2);
      assert.match(error.stderr ?? '', /^probe: invalid configuration: WINNOW_API_PORT: [^\n]+; WINNOW_WORKER_PORT: [^\n]+\n$/);
      return true;
    },
  );
});

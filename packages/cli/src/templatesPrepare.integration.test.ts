import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { serveDemoWeb } from '@winnow/demo-corpus';

const main = fileURLToPath(new URL('./main.js', import.meta.url));
const run = promisify(execFile);

describe('winnow templates prepare, embedded (the real CLI)', () => {
  test("runs the preparation here and says what became of each page type; the listing explains every version's changes", async () => {
    const web = await serveDemoWeb(['gazette'], { articles: 8 });
    const dataDir = join(await mkdtemp(join(tmpdir(), 'winnow-templates-')), 'pglite');
    const env = { ...process.env, WINNOW_DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '', ELASTICSEARCH_URL: '', WINNOW_API_URL: '' };
    const winnow = (...args: string[]) => run(process.execPath, [main, ...args], { env, maxBuffer: 16 * 1024 * 1024 });
    try {
      const origin = web.sites[0]?.origin;
      await winnow('sites', 'add', 'gazette', '--seed', `${origin}/`, '--allow-private', '--template-every-ms', '0', '--min-template-pages', '3');
      await winnow('crawl', 'gazette');
      const listed = (await winnow('templates', 'list', 'gazette')).stdout;
      const version = /\tv(\d+) \(current\)\t/.exec(listed)?.[1];
      assert.ok(version, listed);
      // The crawl's end prepared from the same pages: an analyst's run keeps that version, and says so per page type.
      for (const args of [[], ['--wait']]) {
        const { stdout } = await winnow('templates', 'prepare', 'gazette', ...args);
        const [head, ...types] = stdout.trimEnd().split('\n');
        assert.equal(head, `gazette: templates unchanged (version ${version} kept)`, stdout);
        assert.ok(
          types.some((line) => line.endsWith(`\tunchanged (version ${version} kept)`)),
          stdout,
        );
        assert.ok(
          types.every(
            (line) => line.endsWith(`\tunchanged (version ${version} kept)`) || line.endsWith("\tno template: fewer pages than the site's minTemplatePages"),
          ),
          stdout,
        );
      }
      assert.equal((await winnow('templates', 'list', 'gazette')).stdout, listed, 'no version was added');
      // Every later version of a page type says what changed: paths, or the fields that did.
      for (const line of listed.split('\n').filter((text) => / since v\d+/.test(text))) {
        assert.match(line, /, (\+[1-9]\d*\/-\d+|\+\d+\/-[1-9]\d*) content paths since v\d+|; changed: \S|, unchanged since v\d+/, line);
      }
    } finally {
      await web.close();
    }
  });
});

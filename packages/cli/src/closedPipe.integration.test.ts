import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { before, describe, test } from 'node:test';
import { loadEnv } from '@winnow/config';
import { addSite, openRuntime, pipelineStatus, search } from '@winnow/runtime';
import { documentIdFor } from '@winnow/search';
import { recordPageFailure } from '@winnow/storage';
import { formatSearch, formatStatus } from './commands/operate.js';
import { CLI_MAIN, embeddedEnv } from './testing/embeddedCli.js';

/** Far more than a pipe holds (64 KiB) plus what the reader has read ahead, so the command is still writing when the pipe closes. */
const LARGE_OUTPUT = 1024 * 1024;

/** Runs the CLI with stdout into a pipe, reads one line, closes the pipe: `winnow … | head -1`. */
function firstLineThenClose(args: string[], env: NodeJS.ProcessEnv): Promise<{ line: string; code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_MAIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let line: string | undefined;
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (line === undefined && stdout.includes('\n')) {
        line = stdout.slice(0, stdout.indexOf('\n'));
        child.stdout.destroy();
      }
    });
    child.once('error', reject);
    child.once('close', (code) => resolve({ line: line ?? '', code, stderr }));
  });
}

describe('winnow output into a pipe its reader closes early', () => {
  let env: NodeJS.ProcessEnv;

  before(async () => {
    env = await embeddedEnv('pipe');
    const rt = await openRuntime(loadEnv({ WINNOW_DATA_DIR: env.WINNOW_DATA_DIR, WINNOW_LOG_LEVEL: 'silent' }));
    try {
      const site = await addSite(rt, { name: 'news', seeds: ['http://127.0.0.1:9/'], templateEveryMs: 0, allowPrivateAddresses: true });
      const long = (i: number) => `harbour ${i} ${'tide '.repeat(2500)}`;
      const documents = Array.from({ length: 100 }, (_, i) => ({
        url: `http://127.0.0.1:9/${i}.html`,
        title: long(i),
        pageTitle: long(i),
        mainText: `The harbour at noon, story ${i}.`,
      }));
      for (const [i, doc] of documents.entries()) {
        await rt.db.query('INSERT INTO pages (id, site_id, url) VALUES ($1, $2, $3)', [i + 1, site.id, doc.url]);
        await recordPageFailure(rt.db, i + 1, 'extract', long(i), 4);
      }
      await rt.search.upsert(
        documents.map((doc, i) => ({
          ...doc,
          docId: documentIdFor('news', doc.url),
          pageId: i + 1,
          site: 'news',
          templateVersion: 1,
          extractedAt: new Date(),
        })),
      );
      assert.ok(formatStatus(await pipelineStatus(rt)).length > LARGE_OUTPUT, 'status prints more than a pipe holds');
      assert.ok(formatSearch('harbour', await search(rt, { q: 'harbour', size: 100 }), false).length > LARGE_OUTPUT, 'search prints more than a pipe holds');
    } finally {
      await rt.close();
    }
  });

  for (const args of [['status'], ['status', '--json'], ['search', 'harbour', '--size', '100'], ['search', 'harbour', '--size', '100', '--json']]) {
    test(`winnow ${args.join(' ')} | head -1 exits quietly with status 0`, async () => {
      const { line, code, stderr } = await firstLineThenClose(args, env);
      assert.ok(line.length > 0, 'the first line arrived');
      assert.equal(stderr, '');
      assert.equal(code, 0);
    });
  }
});

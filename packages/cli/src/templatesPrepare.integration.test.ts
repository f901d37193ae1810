import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { startApi } from '@winnow/api';
import { loadEnv } from '@winnow/config';
import { serveDemoWeb } from '@winnow/demo-corpus';
import { addSite, openRuntime } from '@winnow/runtime';
import { storeRawPage } from '@winnow/storage';
import { startTemplater } from '@winnow/templater';
import { embeddedCli, runCli } from './testing/embeddedCli.js';

describe('winnow templates prepare, embedded (the real CLI)', () => {
  test("runs the preparation here and says what became of each page type (a site never crawled is refused); the listing explains every version's changes, show and diff read them", async () => {
    const web = await serveDemoWeb(['gazette'], { articles: 8 });
    const { winnow } = await embeddedCli('templates');
    try {
      const origin = web.sites[0]?.origin;
      await winnow('sites', 'add', 'gazette', '--seed', `${origin}/`, '--allow-private', '--template-every-ms', '0', '--min-template-pages', '3');
      await assert.rejects(winnow('templates', 'prepare', 'gazette'), (error: { code?: number; stdout?: string; stderr?: string }) => {
        assert.deepEqual(
          [error.code, error.stdout, error.stderr],
          [1, '', 'winnow: gazette has no stored pages yet: crawl it first (`winnow crawl gazette`), then prepare its templates\n'],
          'before its first crawl: said at once, without following a preparation that has nothing to read',
        );
        return true;
      });
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
      // The current version in full, and what changed since the first.
      const shown = (await winnow('templates', 'show', 'gazette')).stdout;
      assert.match(shown, new RegExp(`^gazette templates v${version} \\(current\\): \\d+ page types?\n`), shown);
      assert.match(shown, /\n {2}health: \d+ pages read, \d+% alone, \d+ words on average\n/, shown);
      assert.match(
        shown,
        /\n {2}layout 1 of \d+: \d+ sample pages, \d+ signature paths, (main region \S+|no main region), \d+ boilerplate blocks?, \d+ repeated lines?\n {4}content paths \([1-9]\d*\):\n {6}\S/,
        shown,
      );
      const json = JSON.parse((await winnow('templates', 'show', 'gazette', '--json')).stdout);
      assert.equal(json.version, Number(version));
      const [type] = json.templates;
      assert.deepEqual(
        JSON.parse((await winnow('templates', 'show', 'gazette', '--page-type', type.cluster, '--version', version, '--json')).stdout).templates,
        [type],
      );
      const diff = (await winnow('templates', 'diff', 'gazette', '1')).stdout;
      assert.match(diff, new RegExp(`^gazette templates v1 to v${version}\n( {2}\\S+\\t.+\n( {4}[+-] \\S+\n)*)+$`), diff);
      for (const [args, code, message] of [
        [['show', 'gazette', '--version', '999'], 1, `winnow: gazette has no template version 999; its versions are 1 to ${version}\n`],
        [['diff', 'gazette', '1', '--page-type', '/nope'], 1, /^winnow: gazette has no page type "\/nope" in version 1 or \d+; their page types: /],
        [['diff', 'gazette', '0'], 2, /^winnow: command-argument value '0' is invalid for argument 'from'/],
      ] as const) {
        await assert.rejects(winnow('templates', ...args), (error: { code?: number; stderr?: string }) => {
          assert.equal(error.code, code, args.join(' '));
          if (typeof message === 'string') assert.equal(error.stderr, message);
          else assert.match(error.stderr ?? '', message);
          return true;
        });
      }
      // Every later version of a page type says what changed: paths, or the fields that did.
      for (const line of listed.split('\n').filter((text) => / since v\d+/.test(text))) {
        assert.match(line, /, (\+[1-9]\d*\/-\d+|\+\d+\/-[1-9]\d*) content paths since v\d+|; changed: \S|, unchanged since v\d+/, line);
      }
    } finally {
      await web.close();
    }
  });
});

describe('winnow templates prepare --wait, remote (the real CLI, API, queue and templater)', () => {
  test('a preparation that fails for good fails the command, with the job, its site and the reason', async () => {
    const token = randomBytes(24).toString('hex');
    // Two attempts, 20 ms apart: the job spends its retries in well under a second.
    const rt = await openRuntime(
      loadEnv({ WINNOW_DATA_DIR: 'memory', WINNOW_LOG_LEVEL: 'silent', WINNOW_API_TOKEN: token, WINNOW_JOB_ATTEMPTS: '2', WINNOW_JOB_BACKOFF_MS: '20' }),
    );
    const api = await startApi(rt, 0, '127.0.0.1');
    const templater = await startTemplater(rt);
    try {
      await addSite(rt, { name: 'broken', seeds: ['http://127.0.0.1:9/'], allowPrivateAddresses: true, templateEveryMs: 0 });
      // A stored page, without which the preparation would be refused before it was queued.
      await rt.db.query(`INSERT INTO pages (site_id, url, content_hash, status) SELECT id, 'http://127.0.0.1:9/', $1, 200 FROM sites WHERE name = 'broken'`, [
        await storeRawPage(rt.db, Buffer.from('<p>stored</p>')),
      ]);
      // Every preparation starts by recording the current templates' health: without its table, each attempt fails.
      await rt.db.exec('ALTER TABLE template_health RENAME TO template_health_moved');
      const env = { ...process.env, WINNOW_API_URL: api.url, WINNOW_API_TOKEN: token, DATABASE_URL: '', REDIS_URL: '' };
      const failed = await runCli(['templates', 'prepare', 'broken', '--wait'], { env }).then(
        () => assert.fail('the command succeeded'),
        (error: { code?: number; stdout?: string; stderr?: string }) => error,
      );
      const [, id] = /\(job (\d+)\)/.exec(failed.stderr ?? '') ?? [];
      assert.ok(id, failed.stderr);
      const answer = await fetch(`${api.url}/sites/broken/templates/jobs/${id}`, { headers: { authorization: `Bearer ${token}` } });
      assert.deepEqual(
        [answer.status, await answer.json()],
        [200, { job: { id, site: 'broken', state: 'failed', result: null, error: 'relation "template_health" does not exist' } }],
      );
      assert.equal((await rt.queues.queue('template').getJob(id))?.attemptsMade, 2, 'the command waited for the retry before it gave up');
      assert.deepEqual([failed.code, failed.stdout], [1, '']);
      assert.equal(failed.stderr, `winnow: template preparation of broken (job ${id}) failed: relation "template_health" does not exist\n`);
    } finally {
      await templater.close();
      await api.close();
      await rt.close();
    }
  });
});

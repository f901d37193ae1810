import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { DatasetError, loadPages, type GoldPage } from './dataset.js';
import { evaluate } from './evaluate.js';
import { siteFolds } from './protocol.js';

const page = (id: string, site: string, html = '<p>x</p>', gold = 'x'): GoldPage => ({ id, site, url: null, html, gold });

describe('siteFolds', () => {
  it('keeps only sites with enough pages and never trains a fold on its own pages', () => {
    const pages = [...Array.from({ length: 12 }, (_, i) => page(`a${String(i).padStart(2, '0')}`, 'a.example')), page('b1', 'b.example')];
    const sites = siteFolds(pages, { minPagesPerSite: 10, folds: 5 });
    assert.deepEqual(
      sites.map((site) => site.site),
      ['a.example'],
    );
    const folds = sites[0]!.folds;
    assert.equal(folds.length, 5);
    assert.deepEqual(
      folds
        .flat()
        .map((p) => p.id)
        .sort(),
      pages.slice(0, 12).map((p) => p.id),
    );
    for (const [i, heldOut] of folds.entries()) {
      const training = folds.filter((_, j) => j !== i).flat();
      for (const held of heldOut) assert.ok(!training.includes(held));
    }
  });

  it('refuses nonsense fold settings', () => {
    assert.throws(() => siteFolds([], { minPagesPerSite: 10, folds: 1 }), RangeError);
    assert.throws(() => siteFolds([], { minPagesPerSite: 3, folds: 5 }), RangeError);
  });
});

describe('loadPages', () => {
  it('reads every .jsonl.gz under a folder and names the bad line of a bad file', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'winnow-data-'));
    const lines = [page('1', 's'), page('2', 's')].map((p) => JSON.stringify({ ...p, meta: {} })).join('\n');
    await writeFile(join(folder, 'pages.jsonl.gz'), gzipSync(`${lines}\n`));
    assert.deepEqual(
      (await loadPages(folder)).map((p) => p.id),
      ['1', '2'],
    );
    await writeFile(join(folder, 'broken.jsonl.gz'), gzipSync(`${JSON.stringify(page('3', 's'))}\n{"id": "4", "site": "s"}\n`));
    await assert.rejects(loadPages(folder), (error: unknown) => error instanceof DatasetError && /broken\.jsonl\.gz:2:/.test(error.message));
    await assert.rejects(loadPages(join(folder, 'missing')), DatasetError);
  });

  it("reads the dataset's measure of how much of the gold the page holds, and nothing else of meta", async () => {
    const folder = await mkdtemp(join(tmpdir(), 'winnow-data-'));
    const lines = [
      { ...page('a', 's'), meta: { gold_token_coverage_in_html: 0.25, site_group: 's' } },
      { ...page('b', 's'), meta: { gold_token_coverage_in_html: null } },
      page('c', 's'),
    ];
    await writeFile(join(folder, 'pages.jsonl.gz'), gzipSync(lines.map((line) => JSON.stringify(line)).join('\n')));
    assert.deepEqual(
      (await loadPages(folder)).map((p) => [p.goldCoverage, 'meta' in p]),
      [
        [0.25, false],
        [undefined, false],
        [undefined, false],
      ],
    );
    await writeFile(join(folder, 'pages.jsonl.gz'), gzipSync(JSON.stringify({ ...page('d', 's'), meta: { gold_token_coverage_in_html: 'most' } })));
    await assert.rejects(loadPages(folder), DatasetError);
  });

  it('keeps a page of unknown site as a site of its own', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'winnow-data-'));
    const lines = [page('a', ''), page('b', ''), page('c', 's')].map((p) => JSON.stringify(p)).join('\n');
    await writeFile(join(folder, 'pages.jsonl.gz'), gzipSync(lines));
    assert.deepEqual(
      (await loadPages(folder)).map((p) => p.site),
      ['(unknown site) a', '(unknown site) b', 's'],
    );
  });
});

describe('evaluate', () => {
  it('scores a single-page method on every page, or on sites with enough pages when asked', async () => {
    const pages = [page('a1', 'a', '<p>alpha beta</p>', 'alpha beta'), page('a2', 'a', '<p>gamma</p>', 'gamma'), page('b1', 'b', '<p>delta</p>', 'delta')];
    assert.equal((await evaluate(pages, { method: 'readability', folds: 5 })).report.pages, 3);
    assert.deepEqual(
      (await evaluate(pages, { method: 'readability', folds: 5, minPagesPerSite: 2 })).outcomes.map((o) => o.id),
      ['a1', 'a2'],
    );
  });

  it('scores a page the method cannot read as 0 and says why, instead of dropping it', async () => {
    const site = (i: number, html: string): GoldPage => page(`p${i}`, 'site', html, `main text number ${i}`);
    const pages = Array.from({ length: 10 }, (_, i) => site(i, `<div>menu</div><p>main text number ${i}</p>`));
    pages[3] = site(3, '');
    const { report, outcomes } = await evaluate(pages, { method: 'fastce', minPagesPerSite: 10, folds: 5 });
    assert.equal(report.pages, 10);
    assert.match(outcomes.find((o) => o.id === 'p3')?.error ?? '', /empty/);
    assert.equal(outcomes.find((o) => o.id === 'p3')?.lcsF1, 0);
    assert.equal(outcomes.find((o) => o.id === 'p4')?.lcsF1, 1);
    assert.deepEqual(Object.keys(report), [
      'method',
      'pages',
      'sites',
      'shingle',
      'bow_f1',
      'lcs_f1',
      'wcxb',
      'ms_per_page',
      'empty',
      'per_site',
      'gold_mismatch',
    ]);
    assert.equal(report.empty, 1, 'the unreadable page is counted as empty where the gold has text');
    assert.equal(outcomes.find((o) => o.id === 'p3')?.empty, true);
    assert.equal(report.per_site[0]?.empty, 1);
  });

  it('counts pages whose gold the dataset says is not their text, that has no article, or that kept the comments the dataset cut, and reports the scores of the others apart', async () => {
    const pages: GoldPage[] = [
      page('a', 's', '<p>alpha beta gamma delta</p>', 'alpha beta gamma delta'),
      { ...page('b', 's', '<p>epsilon zeta eta theta</p>', 'words of another page entirely'), goldCoverage: 0.1 },
      { ...page('c', 's', '<p>iota kappa lambda mu</p>', 'iota kappa lambda mu'), goldCoverage: 0.5 },
      page('d', 's', '<ul><li>nu xi</li><li>omicron pi</li></ul>', '<!-- this page contains no article -->'),
      page('e', 's', '<p>rho sigma tau upsilon</p><p>a reader says hello</p>', 'rho sigma tau upsilon\n!@ $%^&*() COMMENTS\na reader says hello'),
      page('f', 's', '<p>phi chi psi omega: COMMENTS</p>', 'phi chi psi omega:\nCOMMENTS'),
    ];
    const { report, outcomes } = await evaluate(pages, { method: 'reader', folds: 5 });
    assert.deepEqual(
      outcomes.map((o) => o.goldMismatch),
      [false, true, false, true, true, false],
    );
    assert.deepEqual(report.gold_mismatch.ids, ['b', 'd', 'e'], 'flagged by the dataset, gold with no article, and gold that kept its comments');
    assert.equal(report.pages, 6, 'the flagged pages still count in the main figures');
    assert.ok(report.lcs_f1 < 0.7);
    assert.deepEqual(report.gold_mismatch.others, { pages: 3, shingle_f1: 1, bow_f1: 1, lcs_f1: 1 });
  });
});

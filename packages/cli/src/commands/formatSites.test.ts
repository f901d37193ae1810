import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseSiteConfig } from '@winnow/config';
import { formatSites } from './operate.js';
import { duration } from './output.js';

const site = {
  id: 1,
  name: 'legacy',
  config: parseSiteConfig({ name: 'legacy', seeds: ['https://legacy.example/'] }),
  configProblem: null,
  templateVersion: 0,
  createdAt: new Date('2026-11-01T00:00:00Z'),
};

test('a site whose stored settings this version refuses says so under its line, and how to fix it', () => {
  const problem = 'invalid site configuration: allow.0: glob "/articles/**" refused: globs match whole URLs';
  const printed = formatSites([{ ...site, configProblem: problem }]);
  assert.equal(printed.split('\n')[1], `  not crawled until fixed (\`winnow sites update legacy\`): ${problem}`);
  assert.equal(formatSites([site]).split('\n').length, 2, 'a site without a problem is one line');
});

test("a site's line says how many pages a page type needs for a template and how often they are prepared again", () => {
  const line = (settings: Record<string, unknown>) =>
    formatSites([{ ...site, config: parseSiteConfig({ name: 'legacy', seeds: ['https://legacy.example/'], ...settings }) }]).split('\t')[5];
  assert.equal(line({}), 'no templates yet (min 10 pages a type, every 1 d)');
  assert.equal(line({ minTemplatePages: 3, templateEveryMs: 5_400_000 }), 'no templates yet (min 3 pages a type, every 90 min)');
  assert.equal(line({ templateEveryMs: 0 }), 'no templates yet (min 10 pages a type, no schedule)');
  const prepared = formatSites([{ ...site, templateVersion: 3 }]).split('\t')[5];
  assert.equal(prepared, 'templates v3 (min 10 pages a type, every 1 d)');
});

test('a duration is said in the largest unit that says it exactly', () => {
  assert.deepEqual([86_400_000, 7_200_000, 90_000, 1000, 1500].map(duration), ['1 d', '2 h', '90 s', '1 s', '1500 ms']);
});

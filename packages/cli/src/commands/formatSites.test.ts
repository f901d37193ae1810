import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseSiteConfig } from '@winnow/config';
import { formatSites } from './operate.js';

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

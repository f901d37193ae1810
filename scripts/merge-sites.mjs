#!/usr/bin/env node
// Builds an evaluation set of sites seen over several years: a site whose pages are in two or more
// of the shared datasets (collected in different years, so mostly in different designs: bbc.co.uk
// from 2007 to 2013, nytimes.com from 2012 to 2022) becomes one site of all its pages, each page
// with its own dataset's gold. Run the template protocol on it as on any dataset, e.g.
//   node scripts/merge-sites.mjs ../shared/datasets /tmp/merged/pages.jsonl.gz
//   pnpm --silent winnow eval --data /tmp/merged/pages.jsonl.gz --method pipeline --json
// It measures what the per-dataset runs cannot: one template learning a site across its redesigns,
// and pages scored against gold written under different conventions (compare methods on it, not
// with the per-dataset figures).
//
// Usage: node scripts/merge-sites.mjs <datasets folder> <output .jsonl.gz> [--min-pages 10]
import { readdirSync, readFileSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { parseArgs } from 'node:util';

const { positionals, values } = parseArgs({ allowPositionals: true, options: { 'min-pages': { type: 'string', default: '10' } } });
const [folder, output] = positionals;
const minPages = Number(values['min-pages']);
if (!folder || !output || !Number.isInteger(minPages) || minPages < 1) {
  console.error('usage: node scripts/merge-sites.mjs <datasets folder> <output .jsonl.gz> [--min-pages 10]');
  process.exit(2);
}

/** Pages by site, each with the dataset it came from. */
const bySite = new Map();
for (const dataset of readdirSync(folder).sort()) {
  const file = join(folder, dataset, 'pages.jsonl.gz');
  if (!existsSync(file)) continue;
  for (const line of gunzipSync(readFileSync(file)).toString('utf8').split('\n')) {
    if (line.trim() === '') continue;
    const page = JSON.parse(line);
    const pages = bySite.get(page.site) ?? [];
    // Ids are unique within a dataset only: prefix the dataset's name where the id does not carry it.
    pages.push({ dataset, page: { ...page, id: String(page.id).startsWith(`${dataset}/`) ? String(page.id) : `${dataset}/${page.id}` } });
    bySite.set(page.site, pages);
  }
}

const lines = [];
for (const [site, pages] of [...bySite].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
  const datasets = new Set(pages.map((entry) => entry.dataset));
  if (datasets.size < 2 || pages.length < minPages) continue;
  console.log(`${site}: ${pages.length} pages from ${[...datasets].join(', ')}`);
  for (const { page } of pages) lines.push(JSON.stringify(page));
}
mkdirSync(dirname(output), { recursive: true });
writeFileSync(output, gzipSync(`${lines.join('\n')}\n`));
console.log(`${lines.length} pages written to ${output}`);

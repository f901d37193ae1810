#!/usr/bin/env node
// How template preparation grows with the blocks of the sample pages: times the `pipeline`
// method's `prepare` on synthetic sites, with each built checkout given, and prints the ratios.
// Usage: node scripts/prepare-scaling.mjs [checkout ...]   (default: this one; build first)
// e.g.   node scripts/prepare-scaling.mjs /work/main .   (before, after)
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const checkouts = process.argv.length > 2 ? process.argv.slice(2) : ['.'];

let state = 12345;
/** A deterministic pseudo-random integer below `n`, so every checkout reads the same pages. */
const below = (n) => {
  state = (state * 48271) % 2147483647;
  return state % n;
};
const COMMON = 'the of and to in a is that for on with as was by at from'.split(' ');
/** Pseudo-words from a large vocabulary with some common words mixed in, as article text has. */
const paragraph = (words) =>
  Array.from({ length: words }, () => (below(4) === 0 ? COMMON[below(COMMON.length)] : `w${below(1_000_000).toString(36)}`)).join(' ');
const page = (paragraphs, words = 40) =>
  `<!DOCTYPE html><html><head><title>Site</title></head><body>
<div class="nav"><a href="/">Home</a> <a href="/news">News</a> <a href="/sport">Sport</a></div>
<div class="article">${Array.from({ length: paragraphs }, () => `<p>${paragraph(words)}</p>`).join('\n')}</div>
<div class="footer"><p>Copyright 2026 The Example. All rights reserved.</p></div></body></html>`;

const sites = [250, 500, 1000, 2000].map((n) => ({ name: `20 pages of ${n} paragraphs`, pages: Array.from({ length: 20 }, () => page(n)) }));
sites.push({
  name: '19 pages of 50 paragraphs + 1 of 20000',
  pages: [...Array.from({ length: 19 }, () => page(50)), page(20_000, 15)],
});

const seconds = {};
for (const checkout of checkouts) {
  const extract = await import(pathToFileURL(resolve(checkout, 'packages/extract/dist/index.js')).href);
  const pipeline = extract.templateMethodByName('pipeline');
  for (const site of sites) {
    const start = performance.now();
    pipeline.prepare(site.pages);
    const taken = (performance.now() - start) / 1000;
    (seconds[site.name] ??= []).push(taken);
    console.error(`${checkout}: ${site.name}: ${taken.toFixed(2)} s`);
  }
}

console.log(['site', ...checkouts.map((checkout) => `${checkout} s`), ...(checkouts.length > 1 ? ['first / last'] : [])].join('\t'));
for (const site of sites) {
  const times = seconds[site.name];
  const ratio = checkouts.length > 1 ? [`${(times[0] / times[times.length - 1]).toFixed(1)}x`] : [];
  console.log([site.name, ...times.map((time) => time.toFixed(2)), ...ratio].join('\t'));
}

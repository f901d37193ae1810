#!/usr/bin/env node
// Gold across-line pairs in the k-fold `pipeline` text, and what the lines dropped inside the
// article are (issue 38). A pair is the last four words of a gold line and the first four of the
// next, both lines of 3 words or more (reader words, as the replay's phrases). A missed pair is at
// the article's edge when it touches the gold's first or last two lines, else inside; inside, a
// side whose words the text lacks is a dropped line, and with both sides there it is text between.
//
//   node scripts/across-pairs.mjs <dataset folder> [--explain] [--list N] [--site S]
//
// Without --explain the text is read from a `winnow eval --predictions` file given as
// `--predictions <file>`; with it the k-fold `pipeline` runs here (same folds as `winnow eval`,
// sites of 10+ pages, 5 folds) and each dropped inside line is classified by the rule that left it
// out (`explainExtraction`), its link share and its place (table cell, list item, same path as the
// kept line beside it). Needs `pnpm build` first.
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { loadPages, siteFolds } = await import(join(root, 'packages/eval/dist/index.js'));
const { readerWords, padded } = await import(join(root, 'packages/eval/dist/replay/readerWords.js'));
const extract = await import(join(root, 'packages/extract/dist/index.js'));

const args = process.argv.slice(2);
const option = (name) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const folder = args[0];
const explain = args.includes('--explain');
const list = Number(option('--list') ?? 0);
const onlySite = option('--site');
const pages = (await loadPages(folder)).filter((page) => !onlySite || page.site === onlySite);
const byId = new Map(pages.map((page) => [page.id, page]));

/** id -> { text, lines? (explained page lines), tree? } */
const outputs = new Map();
if (explain) {
  const method = extract.methodByName('pipeline');
  for (const site of siteFolds(pages, { minPagesPerSite: 10, folds: 5 })) {
    for (const [f, heldOut] of site.folds.entries()) {
      const training = site.folds.flatMap((fold, i) => (i === f ? [] : fold.map((page) => page.html)));
      const extractor = extract.preparedExtractor(method, training);
      for (const page of heldOut) {
        const explanation = extract.explainExtraction(page.html, extractor);
        outputs.set(page.id, { text: explanation.result.text, lines: explanation.lines, tree: extract.buildBlockTree(page.html) });
      }
    }
  }
} else {
  const file = option('--predictions');
  for (const line of (await readFile(file, 'utf8')).split('\n')) if (line.trim()) outputs.set(JSON.parse(line).id, { text: JSON.parse(line).text });
}

const EDGE = 2;
const counts = { pairs: 0, found: 0, edge: 0, droppedInside: 0, betweenInside: 0, orderInside: 0 };
const classes = new Map();
const examples = [];
const bump = (key) => classes.set(key, (classes.get(key) ?? 0) + 1);

/** Link characters over text characters of a line's start block and its inline descendants. */
function linkShare(block) {
  let link = 0;
  let text = 0;
  const walk = (b) => {
    link += b.linkChars;
    text += b.textChars;
    for (const item of b.items) if (typeof item === 'object' && item !== null && 'tag' in item && !item.breaksLine) walk(item);
  };
  walk(block);
  return text === 0 ? 0 : link / text;
}

for (const [id, output] of outputs) {
  const page = byId.get(id);
  if (!page) continue;
  const gold = page.gold
    .split('\n')
    .map((text) => ({ text, words: readerWords(text) }))
    .filter((line) => line.words.length > 0);
  const textLines = output.text.split('\n').map((line) => padded(readerWords(line)));
  const text = padded(readerWords(output.text));
  const has = (words) => text.includes(padded(words));
  for (let i = 0; i + 1 < gold.length; i++) {
    const a = gold[i];
    const b = gold[i + 1];
    if (a.words.length < 3 || b.words.length < 3) continue;
    counts.pairs++;
    const tail = a.words.slice(-4);
    const head = b.words.slice(0, 4);
    if (has([...tail, ...head])) {
      counts.found++;
      continue;
    }
    if (i < EDGE || i + 1 >= gold.length - EDGE) {
      counts.edge++;
      continue;
    }
    const missing = [has(tail) ? null : { line: a, words: tail }, has(head) ? null : { line: b, words: head }].filter(Boolean);
    if (missing.length === 0) {
      const at = (words) => textLines.findIndex((line) => line.includes(padded(words)));
      if (at(tail) > at(head)) counts.orderInside++;
      else counts.betweenInside++;
      continue;
    }
    counts.droppedInside++;
    if (!explain) continue;
    for (const { line, words } of missing) {
      const explained = output.lines.find((candidate) => padded(readerWords(candidate.text)).includes(padded(words)));
      if (!explained) {
        bump('not on the page as one line');
        examples.push({ id, key: 'not on the page as one line', path: '', text: line.text.slice(0, 140) });
        continue;
      }
      const block = output.tree.blocks[explained.block];
      const share = linkShare(block);
      const inTable = /\.T[DH](\.|$)/.test(explained.path);
      const inList = /\.LI(\.|$)/.test(explained.path);
      const key = [explained.rule, share > 0.5 ? 'links>50%' : share > 0 ? 'some links' : 'no links', inTable ? 'table' : inList ? 'list' : 'other'].join(
        ' | ',
      );
      bump(key);
      examples.push({ id, key, path: explained.path, text: explained.text.slice(0, 140), reason: explained.reason });
    }
  }
}

const rate = (n) => (n / Math.max(1, counts.pairs)).toFixed(3);
console.log(
  `${folder}: pairs ${counts.pairs}, found ${counts.found} (${rate(counts.found)}), edge misses ${counts.edge}; inside: dropped ${counts.droppedInside}, text between ${counts.betweenInside}, other order ${counts.orderInside}`,
);
if (explain) {
  for (const [key, n] of [...classes].sort((x, y) => y[1] - x[1])) console.log(`  ${String(n).padStart(4)}  ${key}`);
  if (list > 0) {
    const sorted = [...examples].sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));
    for (const example of sorted.slice(0, list)) console.log(`  - ${example.key} | ${example.id} | ${example.path} | ${example.text}`);
  }
}

import { writeFileSync } from 'node:fs';
import { loadPages, shingleMatch, shingleScore } from '@winnow/eval';
import { methodByName } from '@winnow/extract';
import { readabilityArticle } from '../extract/dist/readability.js';
const [dataset] = process.argv.slice(2);
const pages = await loadPages(`/work/shared/datasets/${dataset}`);
const out = [];
const matches = [];
for (const p of pages) {
  let content = null, text = '';
  try { content = readabilityArticle(p.html, { keepClasses: true }).content; } catch {}
  try { text = methodByName('readability').extract(p.html).text; } catch {}
  out.push({ id: p.id, content, readabilityText: text });
  matches.push(shingleMatch(p.gold, text));
}
writeFileSync(`/tmp/w/cache-${dataset}.json`, JSON.stringify(out));
console.log(dataset, 'readability', JSON.stringify(shingleScore(matches)));

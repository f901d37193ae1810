import { readFileSync, existsSync } from 'node:fs';
import { loadPages, shingleMatch, shingleScore } from '@winnow/eval';
import { cleanArticle } from '../extract/dist/auto.js';
import { methodByName } from '@winnow/extract';
const datasets = process.argv.slice(2);
for (const d of datasets) {
  if (!existsSync(`/tmp/w/cache-${d}.json`)) continue;
  const cache = new Map(JSON.parse(readFileSync(`/tmp/w/cache-${d}.json`, 'utf8')).map((c) => [c.id, c]));
  const pages = await loadPages(`/work/shared/datasets/${d}`);
  const r = [], a = [];
  for (const p of pages) {
    const c = cache.get(p.id);
    r.push(shingleMatch(p.gold, c.readabilityText));
    let text;
    if (c.content) text = cleanArticle(c.content).lines.map((l) => l.text).join('\n');
    else { try { text = methodByName('mainblock').extract(p.html).text; } catch { text = ''; } }
    a.push(shingleMatch(p.gold, text));
  }
  const f = (x) => x.f1.toFixed(4) + ' (p ' + x.p.toFixed(3) + ' r ' + x.r.toFixed(3) + ')';
  console.log(d.padEnd(16), 'readability', f(shingleScore(r)), ' auto', f(shingleScore(a)));
}

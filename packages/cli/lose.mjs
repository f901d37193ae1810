import { readFileSync } from 'node:fs';
import { loadPages, shingleMatch, shingleScore } from '@winnow/eval';
import { cleanArticle } from '../extract/dist/auto.js';
const d = process.argv[2];
const cache = new Map(JSON.parse(readFileSync(`/tmp/w/cache-${d}.json`, 'utf8')).map((c) => [c.id, c]));
const pages = await loadPages(`/work/shared/datasets/${d}`);
const rows = [];
for (const p of pages) {
  const c = cache.get(p.id);
  const text = cleanArticle(c.content).lines.map((l) => l.text).join('\n');
  const r = shingleScore([shingleMatch(p.gold, c.readabilityText)]).f1, a = shingleScore([shingleMatch(p.gold, text)]).f1;
  const kept = new Set(text.split('\n'));
  const dropped = c.readabilityText.split('\n').filter((l) => !kept.has(l) && l.trim());
  rows.push({ id: p.id, r, a, dropped, inGold: dropped.filter((l) => p.gold.includes(l.slice(0, 50))) });
}
rows.sort((x, y) => (x.a - x.r) - (y.a - y.r));
for (const row of rows.slice(0, 6)) console.log(row.id.slice(0, 30), row.r.toFixed(2), row.a.toFixed(2), 'dropped-in-gold:', JSON.stringify(row.inGold.slice(0, 4).map((l) => l.slice(0, 70))));
const lost = rows.reduce((s, r) => s + Math.min(0, r.a - r.r), 0), won = rows.reduce((s, r) => s + Math.max(0, r.a - r.r), 0);
console.log('lost', lost.toFixed(2), 'won', won.toFixed(2));

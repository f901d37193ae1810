import { loadPages, shingleMatch, shingleScore } from '@winnow/eval';
import { methodByName } from '@winnow/extract';
const [dataset, ...methods] = process.argv.slice(2);
const pages = await loadPages(`/work/shared/datasets/${dataset}`);
const results = {};
for (const m of methods) {
  const method = methodByName(m);
  results[m] = pages.map((p) => { try { return shingleMatch(p.gold, method.extract(p.html).text); } catch { return shingleMatch(p.gold, ''); } });
  console.log(m, JSON.stringify(shingleScore(results[m])));
}
if (methods.length === 2) {
  const [a, b] = methods;
  const oracle = pages.map((_, i) => { const x = results[a][i], y = results[b][i]; const f = (s) => { const sc = shingleScore([s]); return sc.f1; }; return f(x) >= f(y) ? x : y; });
  console.log('oracle', JSON.stringify(shingleScore(oracle)));
  const diffs = pages.map((p, i) => ({ id: p.id, a: shingleScore([results[a][i]]), b: shingleScore([results[b][i]]) })).sort((x, y) => (x.a.f1 - x.b.f1) - (y.a.f1 - y.b.f1));
  for (const d of [...diffs.slice(0, 8), ...diffs.slice(-8)]) console.log(d.id, a, d.a.p.toFixed(2), d.a.r.toFixed(2), b, d.b.p.toFixed(2), d.b.r.toFixed(2));
}

import { loadPages } from '@winnow/eval';
import { methodByName } from '@winnow/extract';
const [dataset, id, m] = process.argv.slice(2);
const pages = await loadPages(`/work/shared/datasets/${dataset}`);
const page = pages.find((p) => p.id.includes(id));
const text = methodByName(m).extract(page.html).text;
const gold = page.gold;
const goldLines = new Set(gold.split('\n').map((l) => l.trim()));
for (const line of text.split('\n')) if (!gold.includes(line.trim().slice(0, 60))) console.log('EXTRA:', line.slice(0, 200));

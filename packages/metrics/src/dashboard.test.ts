import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { PipelineMetrics, seriesNames } from './metrics.js';

const DASHBOARD = new URL('../../../infra/grafana/winnow.json', import.meta.url);

interface Panel {
  type: string;
  title: string;
  gridPos: { h: number; w: number; x: number; y: number };
  datasource?: { type: string; uid: string };
  targets?: { expr: string; refId: string }[];
}

const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as {
  title: string;
  uid: string;
  schemaVersion: number;
  panels: Panel[];
  templating: { list: { name: string; type: string; query: string }[] };
};
const panels = dashboard.panels.filter((panel) => panel.type !== 'row');
const queried = (panel: Panel) => (panel.targets ?? []).flatMap((target) => target.expr.match(/\b(?:winnow|process|nodejs)_[a-z0-9_]+\b/g) ?? []);

test('the Grafana dashboard is a dashboard: a title, a uid, panels on the grid, each querying the Prometheus the user picks', () => {
  assert.equal(dashboard.title, 'Winnow');
  assert.match(dashboard.uid, /^[a-z0-9-]{1,40}$/);
  assert.ok(dashboard.schemaVersion >= 36);
  assert.deepEqual(
    dashboard.templating.list.map(({ name, type, query }) => [name, type, query]),
    [['datasource', 'datasource', 'prometheus']],
  );
  assert.ok(panels.length >= 20, `${panels.length} panels`);
  for (const panel of panels) {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: Grafana's variable syntax, not a template literal
    assert.deepEqual(panel.datasource, { type: 'prometheus', uid: '${datasource}' }, panel.title);
    assert.ok(panel.targets && panel.targets.length > 0, `${panel.title} queries something`);
    assert.ok(panel.gridPos.x + panel.gridPos.w <= 24, `${panel.title} fits the grid's 24 columns`);
    assert.equal(new Set(panel.targets.map((target) => target.refId)).size, panel.targets.length, `${panel.title}: one refId per query`);
  }
  const ids = dashboard.panels.map((panel) => (panel as Panel & { id: number }).id);
  assert.equal(new Set(ids).size, ids.length, 'panel ids are unique');
});

test('every metric the dashboard queries is one Winnow exports, and every Winnow metric has a panel', async () => {
  const exported = await seriesNames(new PipelineMetrics());
  for (const panel of panels) for (const name of queried(panel)) assert.ok(exported.has(name), `${panel.title}: ${name} is not exported`);
  const used = new Set(panels.flatMap(queried).map((name) => name.replace(/_(bucket|sum|count)$/, '')));
  const own = [...exported].filter((name) => name.startsWith('winnow_')).map((name) => name.replace(/_(bucket|sum|count)$/, ''));
  for (const name of new Set(own)) assert.ok(used.has(name), `${name} has no panel`);
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadApiEnv } from './apiEnv.js';
import { type Env, loadEnv } from './env.js';

const problem = (name: string, value: string): string => {
  try {
    loadEnv({ [name]: value });
  } catch (error) {
    return (error as Error).message;
  }
  return 'accepted';
};

test('a numeric setting out of its range says the range, not just "a whole number"', () => {
  assert.match(problem('WINNOW_JOB_ATTEMPTS', '0'), /WINNOW_JOB_ATTEMPTS: expected a whole number from 1 to 50$/);
  assert.match(problem('WINNOW_API_PORT', '70000'), /WINNOW_API_PORT: expected a whole number from 0 to 65535$/);
  assert.match(problem('WINNOW_MAX_PAGE_BYTES', '100'), /WINNOW_MAX_PAGE_BYTES: expected a whole number from 1024 to 104857600$/);
});

test('every numeric setting states its real rule: its bounds are accepted, one past them and fractions refused', () => {
  const defaults = loadEnv({});
  const numeric = (Object.keys(defaults) as (keyof Env)[]).filter((name) => typeof defaults[name] === 'number');
  assert.ok(numeric.length >= 15, `found ${numeric.length} numeric settings`);
  for (const name of numeric) {
    const rule = /expected a whole number from (\d+) to (\d+)$/.exec(problem(name, 'many'));
    assert.ok(rule, `${name} states its range`);
    const [min, max] = [Number(rule[1]), Number(rule[2])];
    assert.equal(loadEnv({ [name]: String(min) })[name], min, `${name}=${min}`);
    assert.equal(loadEnv({ [name]: String(max) })[name], max, `${name}=${max}`);
    for (const bad of [min - 1, max + 1, min + 0.5])
      assert.match(problem(name, String(bad)), new RegExp(`${name}: expected a whole number from ${min} to ${max}$`), `${name}=${bad}`);
  }
});

test('a setting that is off until configured is unset by default and holds to its range when set', () => {
  assert.equal(loadEnv({}).WINNOW_WORKER_PORT, undefined);
  assert.equal(loadEnv({ WINNOW_WORKER_PORT: '' }).WINNOW_WORKER_PORT, undefined);
  assert.equal(loadEnv({ WINNOW_WORKER_PORT: '9464' }).WINNOW_WORKER_PORT, 9464);
  for (const bad of ['-1', '65536', '1.5', 'many'])
    assert.match(problem('WINNOW_WORKER_PORT', bad), /WINNOW_WORKER_PORT: expected a whole number from 0 to 65535$/);
  assert.equal(loadEnv({}).WINNOW_WORKER_HOST, '127.0.0.1', 'loopback unless configured');
});

test('extraction methods are checked at load, naming the variable and the names it takes', () => {
  assert.deepEqual([loadEnv({}).WINNOW_TEMPLATE_METHOD, loadEnv({}).WINNOW_FALLBACK_METHOD], ['pipeline', 'reader']);
  assert.equal(loadEnv({ WINNOW_TEMPLATE_METHOD: 'fastce', WINNOW_FALLBACK_METHOD: 'auto' }).WINNOW_TEMPLATE_METHOD, 'fastce');
  assert.match(
    problem('WINNOW_TEMPLATE_METHOD', 'nope'),
    /WINNOW_TEMPLATE_METHOD: unknown template method "nope"; expected one of: pipeline, fastce, fastce\+, fastce\+auto, ce$/,
  );
  assert.match(problem('WINNOW_TEMPLATE_METHOD', 'reader'), /WINNOW_TEMPLATE_METHOD: unknown template method "reader"/, 'a single-page method has no template');
  assert.match(problem('WINNOW_FALLBACK_METHOD', 'pipeline'), /WINNOW_FALLBACK_METHOD: unknown single-page method "pipeline"; expected one of: .*\breader\b/);
});

test('on a Redis Cluster the queue prefix must hold a {…} hash tag, {winnow} when unset; a single Redis takes any prefix', () => {
  const cluster = { WINNOW_REDIS_MODE: 'cluster', REDIS_URL: 'redis://127.0.0.1:7000' };
  assert.equal(loadEnv(cluster).WINNOW_QUEUE_PREFIX, '{winnow}');
  assert.equal(loadEnv({ ...cluster, WINNOW_QUEUE_PREFIX: 'prod:{winnow}' }).WINNOW_QUEUE_PREFIX, 'prod:{winnow}');
  assert.throws(
    () => loadEnv({ ...cluster, WINNOW_QUEUE_PREFIX: 'winnow' }),
    /WINNOW_QUEUE_PREFIX: on a Redis Cluster it must hold a \{…\} hash tag, such as \{winnow\}/,
  );
  assert.throws(() => loadEnv({ ...cluster, WINNOW_QUEUE_PREFIX: 'winnow{}' }), /hash tag/);
  assert.throws(() => loadEnv({ WINNOW_REDIS_MODE: 'cluster' }), /REDIS_URL: WINNOW_REDIS_MODE=cluster needs the URL of one node/);
  assert.throws(() => loadEnv({ WINNOW_REDIS_MODE: 'sentinel' }), /WINNOW_REDIS_MODE/);
  assert.equal(loadEnv({}).WINNOW_QUEUE_PREFIX, 'winnow');
  assert.equal(loadEnv({ WINNOW_QUEUE_PREFIX: 'plain' }).WINNOW_QUEUE_PREFIX, 'plain');
});

test('a command sent to an API reads its two settings by the same rules as the whole configuration', () => {
  const outcome = (load: () => unknown) => {
    try {
      return load();
    } catch (error) {
      return (error as Error).message;
    }
  };
  const cases: NodeJS.ProcessEnv[] = [
    {},
    { WINNOW_API_URL: '', WINNOW_API_TOKEN: '' },
    { WINNOW_API_URL: 'https://winnow.example:8443/', WINNOW_API_TOKEN: 'search:abcdefghijklmnopqr, metrics:scrapescrapescrape,0123456789abcdefgh' },
    { WINNOW_API_URL: 'ftp://winnow.example/' },
    { WINNOW_API_URL: 'not a url', WINNOW_API_TOKEN: 'serach:abcdefghijklmnopqr,short' },
    { WINNOW_API_TOKEN: 'operate:has space in it here' },
  ];
  for (const source of cases) {
    const whole = outcome(() => {
      const env = loadEnv(source);
      return { WINNOW_API_TOKEN: env.WINNOW_API_TOKEN, WINNOW_API_URL: env.WINNOW_API_URL };
    });
    assert.deepEqual(
      outcome(() => loadApiEnv(source)),
      whole,
      JSON.stringify(source),
    );
  }
  assert.match(
    String(outcome(() => loadApiEnv(cases[4] as NodeJS.ProcessEnv))),
    /WINNOW_API_TOKEN\.0: unknown token scope "serach".*WINNOW_API_TOKEN\.1: each token.*WINNOW_API_URL: must be a URL/,
  );
});

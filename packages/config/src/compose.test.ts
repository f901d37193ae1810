import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { ENV_NAMES, loadEnv } from './env.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string; target?: string };
  command?: string[];
  environment?: Record<string, string>;
  expose?: string[];
  ports?: string[];
  depends_on?: Record<string, { condition: string }>;
}

const compose = parse(readFileSync(`${root}docker-compose.yml`, 'utf8'), { merge: true }) as { services: Record<string, ComposeService> };
const services = compose.services;
const winnowServices = Object.entries(services).filter(([, service]) => service.build);

test('docker-compose.yml runs every Winnow service, each from a Dockerfile target that exists', () => {
  const commands = winnowServices.map(([, service]) => service.command?.join(' '));
  for (const name of ['api', 'crawler', 'templater', 'extractor', 'indexer']) {
    assert.ok(commands.includes(`node services/${name}/dist/main.js`), `${name} runs`);
    assert.ok(existsSync(`${root}services/${name}/src/main.ts`), `${name} has a main`);
  }
  for (const [name, service] of winnowServices) {
    const dockerfile = readFileSync(`${root}${service.build?.dockerfile}`, 'utf8');
    assert.match(dockerfile, new RegExp(`^FROM .* AS ${service.build?.target}$`, 'm'), `${name}: target ${service.build?.target}`);
  }
});

/** `${NAME:?message}`: a value the operator must supply when starting compose. */
const REQUIRED_FROM_SHELL = /^\$\{(\w+):\?[^}]+\}$/;

test("every Winnow service's environment is known to the configuration schema and valid", () => {
  for (const [name, service] of winnowServices) {
    const environment = service.environment ?? {};
    for (const variable of Object.keys(environment)) assert.ok(ENV_NAMES.includes(variable), `${name}: ${variable} is not in the schema`);
    const fixed = Object.fromEntries(Object.entries(environment).filter(([, value]) => !REQUIRED_FROM_SHELL.test(value)));
    for (const [variable, value] of Object.entries(environment)) {
      if (REQUIRED_FROM_SHELL.test(value))
        assert.equal(REQUIRED_FROM_SHELL.exec(value)?.[1], variable, `${name}: ${variable} is read from the variable of its own name`);
    }
    assert.doesNotThrow(() => loadEnv(fixed), `${name}: its environment validates`);
  }
});

test('the API is reachable from outside its container only with a token the operator supplies', () => {
  assert.match(services.api?.environment?.WINNOW_API_TOKEN ?? '', REQUIRED_FROM_SHELL);
});

test('service URLs, ports and dependencies line up', () => {
  const urlVariables: Record<string, string> = { DATABASE_URL: 'postgres', REDIS_URL: 'redis', ELASTICSEARCH_URL: 'elasticsearch' };
  for (const [name, service] of winnowServices) {
    for (const [variable, backing] of Object.entries(urlVariables)) {
      const url = new URL(service.environment?.[variable] ?? '');
      assert.equal(url.hostname, backing, `${name}: ${variable} points at the ${backing} service`);
      assert.ok(services[backing]?.expose?.includes(url.port), `${name}: ${backing} exposes port ${url.port}`);
      assert.equal(service.depends_on?.[backing]?.condition, 'service_healthy', `${name} waits for ${backing}`);
    }
    for (const dependency of Object.keys(service.depends_on ?? {})) assert.ok(services[dependency], `${name} depends on a defined service`);
  }
  const api = services.api;
  const published = api?.ports?.[0]?.split(':').at(-1);
  assert.equal(published, api?.environment?.WINNOW_API_PORT, 'the API listens on the port compose publishes');
  assert.equal(api?.environment?.WINNOW_API_HOST, '0.0.0.0', 'reachable from outside its container');
  const image = services.elasticsearch?.image ?? '';
  const launcher = /<elasticsearch.version>([\d.]+)</.exec(readFileSync(`${root}infra/elasticsearch-local/pom.xml`, 'utf8'))?.[1];
  assert.match(image, /elasticsearch:8\./, 'the server major matches the v8 client');
  assert.ok(image.endsWith(`:${launcher}`), `compose runs the version the tests run (${launcher})`);
});

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { ENV_NAMES, loadEnv } from './env.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string; target?: string; args?: Record<string, string> };
  command?: string[];
  environment?: Record<string, string>;
  expose?: string[];
  ports?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  network_mode?: string;
}

/** Compose's `!reset` (an override takes a value away): read as the empty value it leaves. */
const reset = { tag: '!reset', resolve: () => null, identify: () => false };
const readCompose = (file: string) =>
  (parse(readFileSync(`${root}${file}`, 'utf8'), { merge: true, customTags: [reset] }) as { services: Record<string, ComposeService> }).services;
const services = readCompose('docker-compose.yml');
/** The host-network override, with compose's `${NAME:-default}` read as its default. */
const hostnet = readCompose('docker-compose.host.yml');
const withDefaults = (text: string) => text.replace(/\$\{\w+:-([^}]*)\}/g, '$1');
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
  const urlVariables: Record<string, string> = {
    DATABASE_URL: 'postgres',
    REDIS_URL: 'redis',
    ELASTICSEARCH_URL: 'elasticsearch',
    WINNOW_S3_ENDPOINT: 's3',
  };
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
  const s3proxy = /<s3proxy.version>([\d.]+)</.exec(readFileSync(`${root}infra/s3proxy-local/pom.xml`, 'utf8'))?.[1];
  assert.equal(services.s3?.image, `andrewgaul/s3proxy:s3proxy-${s3proxy}`, `compose runs the S3Proxy the tests run (${s3proxy})`);
  assert.equal(hostnet.s3?.image, `winnow-local/s3proxy:${s3proxy}`);
  const identity = services.s3?.environment ?? {};
  for (const [name, service] of winnowServices) {
    assert.equal(service.environment?.WINNOW_S3_ACCESS_KEY_ID, identity.S3PROXY_IDENTITY, `${name} signs as the store's identity`);
    assert.equal(service.environment?.WINNOW_S3_SECRET_ACCESS_KEY, identity.S3PROXY_CREDENTIAL, `${name} holds the store's credential`);
  }
});

/** The port a service's health check asks for `/ready`. */
const readyPort = (service: ComposeService | undefined) =>
  /http:\/\/127\.0\.0\.1:(\d+)\/ready/.exec(withDefaults(service?.healthcheck?.test.join(' ') ?? ''))?.[1];

test('every Winnow service has a health check on /ready, at the port it serves it on', () => {
  for (const [name, service] of winnowServices) {
    const port = name === 'api' ? service.environment?.WINNOW_API_PORT : service.environment?.WINNOW_WORKER_PORT;
    assert.ok(port, `${name} serves /ready`);
    assert.equal(readyPort(service), port, `${name}: its health check asks /ready on ${port}`);
    const local = hostnet[name];
    const localPort = withDefaults(name === 'api' ? (local?.environment?.WINNOW_API_PORT ?? '') : (local?.environment?.WINNOW_WORKER_PORT ?? ''));
    assert.equal(readyPort(local), localPort, `${name} on the host network: its health check asks /ready on ${localPort}`);
  }
});

test('Redis appends every write to disk and refuses writes when full, in both files', () => {
  for (const redis of [services.redis, hostnet.redis]) {
    const command = redis?.command?.join(' ') ?? '';
    assert.match(command, /--appendonly yes/);
    assert.match(command, /--maxmemory-policy noeviction/);
  }
});

test('the host-network override: every container on the host network, listening on 127.0.0.1 only, on ports apart, from images built here', () => {
  const build = readFileSync(`${root}infra/docker/build-images.sh`, 'utf8');
  const ports: string[] = [];
  for (const name of Object.keys(services)) {
    const service = hostnet[name];
    assert.equal(service?.network_mode, 'host', `${name} runs on the host network`);
    assert.match(service?.image ?? '', /^winnow-local\//, `${name} runs a locally built image`);
    assert.ok(build.includes(service?.image?.split(':')[0] ?? '?'), `${name}: build-images.sh builds ${service?.image}`);
  }
  const merged = (name: string) => ({ ...services[name]?.environment, ...hostnet[name]?.environment });
  for (const [name] of winnowServices) {
    const env = merged(name);
    for (const variable of Object.keys(hostnet[name]?.environment ?? {})) assert.ok(ENV_NAMES.includes(variable), `${name}: ${variable} is in the schema`);
    for (const variable of ['DATABASE_URL', 'REDIS_URL', 'ELASTICSEARCH_URL', 'WINNOW_S3_ENDPOINT'])
      assert.equal(new URL(withDefaults(env[variable] ?? '')).hostname, '127.0.0.1');
    const host = name === 'api' ? env.WINNOW_API_HOST : (env.WINNOW_WORKER_HOST ?? '127.0.0.1');
    assert.equal(host, '127.0.0.1', `${name} listens on loopback only`);
    ports.push(withDefaults(name === 'api' ? (env.WINNOW_API_PORT ?? '') : (env.WINNOW_WORKER_PORT ?? '')));
    assert.equal(hostnet[name]?.build?.args?.NODE_IMAGE, 'winnow-local/node:20', `${name}: built on the local Node image`);
  }
  const commands = ['postgres', 'redis', 'elasticsearch', 's3'].map((name) => withDefaults(hostnet[name]?.command?.join(' ') ?? ''));
  assert.match(commands[0] ?? '', /listen_addresses=127\.0\.0\.1 -c port=(\d+)/);
  assert.match(commands[1] ?? '', /--bind 127\.0\.0\.1 --port (\d+)/);
  assert.match(commands[2] ?? '', /--port (\d+)/, 'the local Elasticsearch binds 127.0.0.1 itself');
  assert.match(commands[3] ?? '', /--port (\d+)/, 'the local S3Proxy binds 127.0.0.1 itself');
  ports.push(...commands.map((command) => /port[= ](\d+)/.exec(command)?.[1] ?? ''));
  assert.equal(new Set(ports).size, ports.length, `every port apart: ${ports.join(', ')}`);
  assert.ok(!ports.includes('5432') && !ports.includes('6379'), "the machine's own Postgres and Redis keep their ports");
});

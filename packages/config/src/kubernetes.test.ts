import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ScaledObject } from '@kubernetes-models/keda/keda.sh/v1alpha1';
import { Deployment, StatefulSet } from 'kubernetes-models/apps/v1';
import { ConfigMap, Namespace, Secret, Service } from 'kubernetes-models/v1';
import { parse, parseAllDocuments } from 'yaml';
import { ENV_NAMES, loadEnv } from './env.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const k8s = join(root, 'infra/k8s');

// biome-ignore lint/suspicious/noExplicitAny: manifests are checked field by field below
type Manifest = any;

/** The kinds the manifests use, each with the model whose JSON schema validates it. */
const MODELS: Record<string, new (data: Manifest) => { validate(): void }> = {
  'v1/Namespace': Namespace,
  'v1/Service': Service,
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
  'apps/v1/Deployment': Deployment,
  'apps/v1/StatefulSet': StatefulSet,
  'keda.sh/v1alpha1/ScaledObject': ScaledObject,
};

/**
 * Renders a kustomization as `kubectl kustomize` does, for the features the manifests use
 * (resources, namespace, a secretGenerator from env files without a hash suffix), and refuses any
 * other, so that what is validated here is what a cluster is given. An env file that does not
 * exist yet (secrets.env, which operators create) is read from its `.example`.
 */
function render(folder: string): Manifest[] {
  const kustomization = parse(readFileSync(join(folder, 'kustomization.yaml'), 'utf8')) as Manifest;
  const known = ['apiVersion', 'kind', 'namespace', 'resources', 'secretGenerator', 'generatorOptions'];
  for (const key of Object.keys(kustomization)) assert.ok(known.includes(key), `${folder}: kustomization field ${key} is not rendered by this test`);
  const objects: Manifest[] = (kustomization.resources as string[]).flatMap((resource) => {
    const path = join(folder, resource);
    if (statSync(path).isDirectory()) return render(path);
    return parseAllDocuments(readFileSync(path, 'utf8')).map((document) => document.toJS() as Manifest);
  });
  for (const generator of (kustomization.secretGenerator ?? []) as { name: string; envs: string[] }[]) {
    assert.equal(kustomization.generatorOptions?.disableNameSuffixHash, true, 'secrets keep their names (the engines and the services share one)');
    const data: Record<string, string> = {};
    for (const file of generator.envs) {
      const path = join(folder, file);
      const text = readFileSync(existsSync(path) ? path : `${path}.example`, 'utf8');
      for (const line of text.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('#'))) {
        const [key, ...value] = line.split('=');
        data[key as string] = Buffer.from(value.join('=')).toString('base64');
      }
    }
    objects.push({ apiVersion: 'v1', kind: 'Secret', metadata: { name: generator.name }, type: 'Opaque', data });
  }
  if (kustomization.namespace)
    for (const object of objects) {
      if (object.kind === 'Namespace') assert.equal(object.metadata.name, kustomization.namespace);
      else object.metadata.namespace = kustomization.namespace;
    }
  return objects;
}

const objects = render(k8s);
const namespace = (parse(readFileSync(join(k8s, 'kustomization.yaml'), 'utf8')) as Manifest).namespace as string;
const find = (kind: string, name: string) => objects.find((object) => object.kind === kind && object.metadata.name === name);
const workloads = objects.filter((object) => object.kind === 'Deployment' || object.kind === 'StatefulSet');
const WINNOW_SERVICES = ['api', 'crawler', 'templater', 'extractor', 'indexer'];

test('every rendered object is valid against its Kubernetes (or KEDA) JSON schema', () => {
  assert.ok(objects.length > 10);
  for (const object of objects) {
    const model = MODELS[`${object.apiVersion}/${object.kind}`];
    assert.ok(model, `${object.apiVersion} ${object.kind} has a schema here`);
    assert.doesNotThrow(() => new model(object).validate(), `${object.kind}/${object.metadata.name}`);
    if (object.kind !== 'Namespace') assert.equal(object.metadata.namespace, namespace);
  }
  const names = objects.map((object) => `${object.kind}/${object.metadata.name}`);
  assert.equal(new Set(names).size, names.length, 'no object is defined twice');
});

test('a schema rejects what a cluster would: the validation can fail', () => {
  const broken = structuredClone(find('Deployment', 'api')) as Manifest;
  broken.spec.template.spec.containers[0].ports[0].containerPort = 'http';
  assert.throws(() => new Deployment(broken).validate());
  const noTarget = structuredClone(find('ScaledObject', 'extractor')) as Manifest;
  delete noTarget.spec.scaleTargetRef;
  assert.throws(() => new ScaledObject(noTarget).validate());
});

test('every Winnow service runs from the one image, by its command', () => {
  for (const name of WINNOW_SERVICES) {
    const container = find('Deployment', name)?.spec.template.spec.containers[0];
    assert.ok(container, `${name} has a Deployment`);
    assert.deepEqual(container.command, ['node', `services/${name}/dist/main.js`]);
    assert.ok(existsSync(join(root, `services/${name}/src/main.ts`)), `${name} has a main`);
    assert.equal(container.image, 'winnow', 'one image, named for an overlay to replace');
  }
});

/** A container's environment as the kubelet builds it: its ConfigMaps, then its own entries (secrets read from the rendered Secret). */
function environmentOf(container: Manifest): Record<string, string> {
  const env: Record<string, string> = {};
  for (const source of container.envFrom ?? []) {
    const map = find('ConfigMap', source.configMapRef?.name);
    assert.ok(map, `ConfigMap ${source.configMapRef?.name} exists`);
    Object.assign(env, map.data);
  }
  for (const entry of container.env ?? []) {
    const ref = entry.valueFrom?.secretKeyRef;
    if (ref) {
      const value = find('Secret', ref.name)?.data?.[ref.key];
      assert.ok(value !== undefined, `Secret ${ref.name} has ${ref.key}`);
      env[entry.name] = Buffer.from(value, 'base64').toString();
    } else env[entry.name] = entry.value;
  }
  return env;
}

test("every Winnow service's environment is known to the configuration schema and valid, credentials from the Secret", () => {
  for (const name of WINNOW_SERVICES) {
    const container = find('Deployment', name)?.spec.template.spec.containers[0];
    const env = environmentOf(container);
    for (const variable of Object.keys(env)) assert.ok(ENV_NAMES.includes(variable), `${name}: ${variable} is not in the schema`);
    const token = name === 'api' ? { WINNOW_API_TOKEN: `operate:${'x'.repeat(32)}` } : {};
    assert.doesNotThrow(() => loadEnv({ ...env, ...token }), `${name}: its environment validates`);
    for (const variable of ['DATABASE_URL', 'REDIS_URL', 'ELASTICSEARCH_URL']) {
      const host = new URL(env[variable] ?? '').hostname;
      assert.ok(find('Service', host), `${name}: ${variable} names the Service ${host}`);
    }
    for (const entry of container.env ?? [])
      if (/TOKEN|DATABASE_URL|PASSWORD/.test(entry.name)) assert.ok(entry.valueFrom?.secretKeyRef, `${name}: ${entry.name} comes from a Secret`);
  }
  const config = find('ConfigMap', 'winnow-config');
  for (const key of Object.keys(config?.data ?? {})) assert.doesNotMatch(key, /TOKEN|PASSWORD|DATABASE_URL/, `${key} belongs in the Secret`);
  const api = environmentOf(find('Deployment', 'api')?.spec.template.spec.containers[0]);
  assert.ok('WINNOW_API_TOKEN' in api, 'the API reads its tokens from the Secret');
  assert.equal(api.WINNOW_API_TOKEN, '', 'the example leaves the token empty: the API refuses to start until an operator sets one');
});

test('readiness on /ready and liveness on /health, on the port the service listens on, scraped there; requests on every container', () => {
  for (const name of WINNOW_SERVICES) {
    const container = find('Deployment', name)?.spec.template.spec.containers[0];
    const env = environmentOf(container);
    const port = Number(name === 'api' ? env.WINNOW_API_PORT : env.WINNOW_WORKER_PORT);
    const host = name === 'api' ? env.WINNOW_API_HOST : env.WINNOW_WORKER_HOST;
    assert.equal(host, '0.0.0.0', `${name}: the kubelet reaches the probe port from outside the container`);
    const portOf = (probe: Manifest) => container.ports.find((entry: Manifest) => entry.name === probe.httpGet.port)?.containerPort;
    assert.equal(container.readinessProbe.httpGet.path, '/ready', `${name} readiness`);
    assert.equal(container.livenessProbe.httpGet.path, '/health', `${name} liveness`);
    assert.equal(portOf(container.readinessProbe), port, `${name}: readiness asks the port it listens on`);
    assert.equal(portOf(container.livenessProbe), port, `${name}: liveness asks the port it listens on`);
    if (name !== 'api') {
      const annotations = find('Deployment', name)?.spec.template.metadata.annotations ?? {};
      assert.equal(annotations['prometheus.io/scrape'], 'true', `${name}: Prometheus scrapes it`);
      assert.equal(Number(annotations['prometheus.io/port']), port, `${name}: at the worker's port, which serves /metrics`);
    }
  }
  for (const workload of workloads)
    for (const container of workload.spec.template.spec.containers) {
      assert.ok(container.resources?.requests?.cpu && container.resources?.requests?.memory, `${workload.metadata.name}: cpu and memory requests`);
      assert.ok(container.readinessProbe && container.livenessProbe, `${workload.metadata.name}: probes`);
    }
});

test('Redis keeps every write (AOF) and refuses writes when full instead of evicting jobs', () => {
  const command = (find('StatefulSet', 'redis').spec.template.spec.containers[0].command as string[]).join(' ');
  assert.match(command, /--appendonly yes/);
  assert.match(command, /--maxmemory-policy noeviction/);
});

test('extractors and indexers scale on their queue in Redis (KEDA), at the address of the Redis Service', () => {
  const redisPort = find('Service', 'redis')?.spec.ports[0].port;
  for (const [worker, queue] of [
    ['extractor', 'extract'],
    ['indexer', 'index'],
  ] as const) {
    const scaled = objects.find((object) => object.kind === 'ScaledObject' && object.spec.scaleTargetRef.name === worker);
    assert.ok(scaled, `${worker} is autoscaled`);
    assert.ok(find('Deployment', worker), `${worker}'s Deployment exists`);
    const trigger = scaled.spec.triggers[0];
    assert.equal(trigger.type, 'redis');
    assert.equal(trigger.metadata.address, `redis.${namespace}.svc.cluster.local:${redisPort}`);
    const prefix = loadEnv(environmentOf(find('Deployment', worker)?.spec.template.spec.containers[0])).WINNOW_QUEUE_PREFIX;
    assert.equal(trigger.metadata.listName, `${prefix}:${queue}:wait`, "BullMQ's list of waiting jobs");
    assert.ok(Number(scaled.spec.maxReplicaCount) > Number(scaled.spec.minReplicaCount));
  }
});

test('the engines run the versions the tests run', () => {
  const launcher = /<elasticsearch.version>([\d.]+)</.exec(readFileSync(join(root, 'infra/elasticsearch-local/pom.xml'), 'utf8'))?.[1];
  assert.equal(find('StatefulSet', 'elasticsearch')?.spec.template.spec.containers[0].image, `docker.elastic.co/elasticsearch/elasticsearch:${launcher}`);
  const compose = parse(readFileSync(join(root, 'docker-compose.yml'), 'utf8'), { merge: true }) as Manifest;
  for (const engine of ['postgres', 'redis', 'elasticsearch'])
    assert.equal(find('StatefulSet', engine)?.spec.template.spec.containers[0].image, compose.services[engine].image, `${engine}: as docker-compose.yml`);
});

/**
 * The comment above each container's `resources` in the raw YAML: where its figures come from.
 * What it quotes ("…") from docs/capacity.md must still be there, so that a new measurement there
 * shows up here as a failing test instead of a stale comment.
 */
function resourcesComment(file: string, container: string): string {
  const lines = readFileSync(join(k8s, file), 'utf8').split('\n');
  const start = lines.findIndex((line) => line.trim() === `- name: ${container}`);
  assert.ok(start >= 0, `${file}: container ${container}`);
  const resources = lines.findIndex((line, index) => index > start && line.trim() === 'resources:');
  assert.ok(resources > start, `${file}: ${container} has resources`);
  const comment: string[] = [];
  for (let index = resources - 1; lines[index]?.trim().startsWith('#'); index--) comment.unshift((lines[index] as string).trim().slice(1).trim());
  return comment.join(' ');
}

test("the requests of what the capacity benchmark measures quote docs/capacity.md's figures as they are there; the rest say they are provisional", () => {
  const capacity = readFileSync(join(root, 'docs/capacity.md'), 'utf8').replaceAll('**', '').replace(/\s+/g, ' ');
  const measured: [string, string][] = [
    ['winnow/api.yaml', 'api'],
    ['winnow/crawler.yaml', 'crawler'],
    ['winnow/extractor.yaml', 'extractor'],
    ['engines/redis.yaml', 'redis'],
  ];
  for (const [file, container] of measured) {
    const comment = resourcesComment(file, container);
    assert.match(comment, /docs\/capacity\.md/, `${container}: its requests name docs/capacity.md`);
    const quotes = [...comment.matchAll(/"([^"]+)"/g)].map((match) => match[1] as string);
    assert.ok(quotes.length > 0, `${container}: its requests quote the figures they come from`);
    for (const quote of quotes) assert.ok(capacity.includes(quote), `${container}: docs/capacity.md no longer says "${quote}"`);
  }
  for (const [file, container] of [
    ['winnow/indexer.yaml', 'indexer'],
    ['winnow/templater.yaml', 'templater'],
  ] as const)
    assert.match(resourcesComment(file, container), /Provisional/, `${container}: unmeasured requests are called provisional`);
});

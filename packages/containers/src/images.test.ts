import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { containerImages, IMAGES } from './index.js';

test('WINNOW_TEST_CONTAINERS picks the images: unset (local engines), local or official; anything else is refused', () => {
  assert.equal(containerImages({}), undefined);
  assert.equal(containerImages({ WINNOW_TEST_CONTAINERS: '' }), undefined);
  assert.equal(containerImages({ WINNOW_TEST_CONTAINERS: 'local' }), 'local');
  assert.equal(containerImages({ WINNOW_TEST_CONTAINERS: 'official' }), 'official');
  assert.throws(() => containerImages({ WINNOW_TEST_CONTAINERS: 'yes' }), /must be "local" or "official", not "yes"/);
});

test('the local images are the ones build-images.sh builds, and Elasticsearch is the version the launcher runs', () => {
  const build = readFileSync(new URL('../../../infra/docker/build-images.sh', import.meta.url), 'utf8');
  const version = /<elasticsearch.version>([\d.]+)</.exec(readFileSync(new URL('../../../infra/elasticsearch-local/pom.xml', import.meta.url), 'utf8'))?.[1];
  assert.ok(version);
  for (const image of [IMAGES.local.postgres, IMAGES.local.redis]) assert.ok(build.includes(`build ${image} `), `${image} is built`);
  assert.ok(build.includes('build "winnow-local/elasticsearch:$ES_VERSION"'), 'Elasticsearch is built, with the version of the pom');
  assert.ok(IMAGES.local.elasticsearch.endsWith(`:${version}`) && IMAGES.official.elasticsearch.endsWith(`:${version}`));
});

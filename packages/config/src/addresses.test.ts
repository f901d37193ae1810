import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { refusedAddress, refusedHost } from './addresses.js';
import { loadEnv } from './env.js';
import { parseSiteConfig } from './site.js';

describe('the crawler network policy', () => {
  test('public addresses are allowed; private ones only when the site allows them', () => {
    for (const address of ['93.184.215.14', '2606:4700::6810:85e5']) assert.equal(refusedAddress(address, false), null, address);
    for (const address of ['127.0.0.1', '10.2.3.4', '172.16.9.9', '192.168.0.1', '100.64.1.1', '169.254.10.10', '::1', 'fd12::1', 'fe80::1']) {
      assert.match(refusedAddress(address, false) ?? '', /private address/, address);
      assert.equal(refusedAddress(address, true), null, `${address} with allowPrivateAddresses`);
    }
  });

  test('cloud metadata, multicast, unspecified and reserved addresses are never allowed', () => {
    for (const address of ['169.254.169.254', '169.254.170.2', 'fd00:ec2::254', '100.100.100.200']) {
      assert.match(refusedAddress(address, true) ?? '', /cloud metadata/, address);
    }
    for (const address of ['224.0.0.251', '0.0.0.0', '255.255.255.255', '::', 'ff02::1', '192.0.2.1', '240.0.0.1']) {
      assert.match(refusedAddress(address, true) ?? '', /not a public address/, address);
    }
  });

  test('IPv6 forms that carry an IPv4 address are judged by it', () => {
    assert.match(refusedAddress('::ffff:127.0.0.1', false) ?? '', /127\.0\.0\.1 is a private address/);
    assert.match(refusedAddress('64:ff9b::a9fe:a9fe', true) ?? '', /169\.254\.169\.254 is a cloud metadata address/);
    assert.match(refusedAddress('2002:0a00:0001::1', false) ?? '', /10\.0\.0\.1 is a private address/);
    assert.equal(refusedAddress('::ffff:93.184.215.14', false), null);
  });

  test('IPv4-compatible IPv6 addresses (::/96) are reserved: refused, even for a site that allows private addresses', () => {
    for (const address of ['::7f00:1', '::a9fe:a9fe', '::5db8:d70e', '::2']) {
      assert.match(refusedAddress(address, true) ?? '', /is not a public address \(ipv4Compatible\)/, address);
    }
    const host = new URL('http://[::127.0.0.1]/').hostname;
    assert.equal(host, '[::7f00:1]');
    assert.match(refusedHost(host, true) ?? '', /::7f00:1 is not a public address/);
    assert.throws(() => parseSiteConfig({ name: 'compat', seeds: ['http://[::127.0.0.1]:8080/'], allowPrivateAddresses: true }), /seeds\.0: refused: ::7f00:1/);
    assert.equal(refusedAddress('::1', true), null, '::1 in it is still loopback');
    assert.match(refusedAddress('::', true) ?? '', /\(unspecified\)/);
  });

  test('host names that always mean this machine are refused before any lookup; other names wait for theirs', () => {
    for (const host of ['localhost', 'LOCALHOST.', 'api.localhost', '[::1]']) assert.ok(refusedHost(host, false), host);
    assert.equal(refusedHost('localhost', true), null);
    assert.equal(refusedHost('example.com', false), null);
  });

  test('a seed with a user name or password is refused: the crawler sends no credentials, and the configuration is shown', () => {
    assert.throws(() => parseSiteConfig({ name: 'creds', seeds: ['https://user:secret@news.example/'] }), /seeds\.0: must not hold a user name or password/);
    assert.throws(() => parseSiteConfig({ name: 'creds', seeds: ['https://user@news.example/'] }), /must not hold a user name or password/);
  });

  test('a site whose seed is an internal address is refused unless it allows private addresses', () => {
    assert.throws(
      () => parseSiteConfig({ name: 'meta', seeds: ['http://169.254.169.254/latest/'] }),
      /seeds\.0: refused: 169\.254\.169\.254 is a cloud metadata address/,
    );
    assert.throws(() => parseSiteConfig({ name: 'admin', seeds: ['http://127.0.0.1:8080/admin'] }), /seeds\.0: refused: 127\.0\.0\.1 is a private address/);
    assert.equal(parseSiteConfig({ name: 'intranet', seeds: ['http://127.0.0.1:8080/'], allowPrivateAddresses: true }).allowPrivateAddresses, true);
    assert.throws(
      () => parseSiteConfig({ name: 'meta', seeds: ['http://169.254.169.254/'], allowPrivateAddresses: true }),
      /cloud metadata/,
      'no configuration reaches the metadata service',
    );
  });
});

describe('API tokens from the environment', () => {
  test('scoped tokens are read; a bare token is an operate token; short ones are refused without being printed', () => {
    const tokens = loadEnv({
      WINNOW_API_TOKEN: 'search:abcdefghijklmnopqr, metrics:scrapescrapescrape, operate:0123456789abcdefgh,zyxwvutsrqponmlkj',
    }).WINNOW_API_TOKEN;
    assert.deepEqual(tokens, [
      { scope: 'search', token: 'abcdefghijklmnopqr' },
      { scope: 'metrics', token: 'scrapescrapescrape' },
      { scope: 'operate', token: '0123456789abcdefgh' },
      { scope: 'operate', token: 'zyxwvutsrqponmlkj' },
    ]);
    assert.deepEqual(loadEnv({}).WINNOW_API_TOKEN, []);
    assert.throws(
      () => loadEnv({ WINNOW_API_TOKEN: 'search:tooshort' }),
      (error: Error) => /WINNOW_API_TOKEN\.0: each token must be at least 16 characters/.test(error.message) && !error.message.includes('tooshort'),
    );
  });

  test('a misspelled scope is refused, not read as part of an operate token', () => {
    for (const entry of ['serach:0123456789abcdefgh', 'admin:0123456789abcdefgh']) {
      assert.throws(
        () => loadEnv({ WINNOW_API_TOKEN: `search:abcdefghijklmnopqr,${entry}` }),
        (error: Error) => /WINNOW_API_TOKEN\.1: unknown token scope "(serach|admin)"/.test(error.message) && !error.message.includes('0123456789abcdefgh'),
      );
    }
  });
});

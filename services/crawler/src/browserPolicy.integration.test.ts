import assert from 'node:assert/strict';
import { createSocket, type Socket } from 'node:dgram';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { loadEnv } from '@winnow/config';
import { addSite, openRuntime, type Runtime, type Service, startCrawl } from '@winnow/runtime';
import { findPageByUrl, findSite, loadBody, type Page } from '@winnow/storage';
import { startCrawler } from './crawler.js';
import { crawlToEnd } from './testing/crawlToEnd.js';
import { closeServer, listenOnLoopback } from '@winnow/demo-corpus';

/** Hosts that mean this machine: the only ones the test proxy forwards to. */
const LOOPBACK = new Set(['127.0.0.1', '0.0.0.0', 'localhost', '[::1]']);

/**
 * The proxy Chromium is launched with in these tests (`WINNOW_BROWSER_PROXY`, loopback not
 * bypassed), standing in for the network Chromium would reach directly if it could connect at all
 * (it cannot: `launchChromium`): whatever Chromium sent itself, not through the crawler, would
 * arrive here. Requests and tunnels to this machine are
 * forwarded, so that a leak reaches the internal server as it would in production; anything else
 * is answered 403 and never leaves the machine.
 */
async function loopbackProxy(): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    const target = URL.canParse(request.url ?? '') ? new URL(request.url ?? '') : undefined;
    if (!target || !LOOPBACK.has(target.hostname)) return void response.writeHead(403).end();
    const forwarded = httpRequest(target, { method: request.method, headers: request.headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    forwarded.on('error', () => response.writeHead(502).end());
    request.pipe(forwarded);
  });
  server.on('connect', (request, socket, head) => {
    const target = new URL(`http://${request.url}`);
    if (!LOOPBACK.has(target.hostname)) return void socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
    const upstream = connect(Number(target.port), target.hostname, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(socket).pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  return { server, url: await listenOnLoopback(server) };
}

/**
 * What a rendered page's own code may reach. Every test crawls one page of a site on 127.0.0.1 in
 * the real Chromium, while an "internal" HTTP server and a UDP listener, also on 127.0.0.1 but not
 * part of the site, record every connection and datagram: they must see none. (0.0.0.0 is always
 * refused by the network policy, and on Linux it reaches loopback.)
 */
describe('the browser crawl keeps rendered pages inside the network policy', () => {
  let rt: Runtime;
  let crawler: Service;
  let site: Server;
  let origin: string;
  let internal: Server;
  let internalPort: number;
  let udp: Socket;
  let udpPort: number;
  let proxy: Awaited<ReturnType<typeof loopbackProxy>>;
  /** Connections, requests and WebSocket upgrades the internal server saw. */
  const internalSeen: string[] = [];
  const datagrams: string[] = [];
  /** Paths the site served, and WebSocket upgrades it was asked for. */
  const siteSeen: string[] = [];

  const html = (body: string) => `<!DOCTYPE html><html><head><title>test</title></head><body>${body}</body></html>`;
  const pages = (): Record<string, string> => {
    const i = internalPort;
    return {
      '/popup.html': html(`<p>The page that opens popups</p>
<a id="a" target="_blank" href="/exfil.html?via=anchor">popup</a>
<form id="f" target="_blank" action="/exfil.html"><input name="via" value="form"></form>
<script>
window.open('/exfil.html?via=open');
document.getElementById('a').click();
document.getElementById('f').submit();
</script>`),
      '/exfil.html': html(`<script>
new WebSocket('ws://0.0.0.0:${i}/popup-ws');
fetch('http://0.0.0.0:${i}/popup-fetch', { mode: 'no-cors' });
fetch('http://127.0.0.1:${i}/popup-fetch-loopback', { mode: 'no-cors' });
</script>`),
      '/ws.html': html(`<p>A page with WebSockets</p><script>
new WebSocket('ws://0.0.0.0:${i}/ws');
new WebSocket('ws://127.0.0.1:${i}/ws');
new WebSocket('ws://' + location.host + '/ws');
const inWorker = "new WebSocket('ws://127.0.0.1:${i}/worker-ws'); fetch('http://127.0.0.1:${i}/worker-fetch', { mode: 'no-cors' });";
const script = URL.createObjectURL(new Blob([inWorker], { type: 'text/javascript' }));
const frame = document.body.appendChild(document.createElement('iframe'));
for (const scope of [window, frame.contentWindow]) {
  try { new scope.Worker(script); } catch {}
  try { new scope.SharedWorker(script); } catch {}
}
document.body.dataset.workers = typeof window.Worker + ' ' + typeof frame.contentWindow.Worker;
</script>`),
      '/sub.html': html(`<p id="out">A page whose requests are redirected</p><script>
fetch('/r-zero-sub', { mode: 'no-cors' });
fetch('/r-data').then((r) => r.json()).then((data) => { document.getElementById('out').textContent = data.note; });
</script>`),
      '/new.html': html('<p>The page that moved here</p>'),
      '/leaves.html': html(`<p id="out">The page that sends itself to an internal host</p><script>
document.getElementById('out').insertAdjacentHTML('afterend', '<p>Written by its script before it leaves</p>');
location.href = 'http://127.0.0.1:${i}/navigated';
</script>`),
      '/submits.html': html(`<p>The page that submits a form to an internal host</p>
<form id="f" method="post" action="http://127.0.0.1:${i}/submitted"><input name="x" value="1"></form>
<script>document.getElementById('f').submit();</script>`),
      '/refreshes.html': `<!DOCTYPE html><html><head><meta http-equiv="refresh" content="0;url=/new.html"><title>test</title></head><body><p>The page that refreshes to another</p></body></html>`,
      '/private-sub.html': html(`<p id="out">A page that reaches for a private host</p>
<link rel="stylesheet" href="http://127.0.0.1:${i}/style.css">
<script src="http://127.0.0.1:${i}/script.js"></script>
<iframe src="http://127.0.0.1:${i}/frame.html"></iframe>
<script>
fetch('http://127.0.0.1:${i}/api', { mode: 'no-cors' });
fetch('/r-internal', { mode: 'no-cors' });
fetch('/data.json').then((r) => r.json()).then((data) => { document.getElementById('out').textContent = data.note; });
</script>`),
      '/speculation.html': html(`<p>A page that asks for prefetches and prerenders</p>
<link rel="preconnect" href="http://127.0.0.1:${i}">
<link rel="preconnect" href="https://127.0.0.1:${i}">
<script type="speculationrules">{"prefetch": [{"source": "list", "urls": ["http://127.0.0.1:${i}/spec-prefetch", "http://0.0.0.0:${i}/spec-prefetch-zero", "/spec-same-prefetch"]}], "prerender": [{"source": "list", "urls": ["http://127.0.0.1:${i}/spec-prerender", "/spec-same-prerender"]}]}</script>
<script>
const rules = document.createElement('script');
rules.type = 'speculationrules';
rules.textContent = JSON.stringify({ prefetch: [{ source: 'list', urls: ['http://127.0.0.1:${i}/spec-script-prefetch'] }] });
document.head.append(rules);
</script>`),
      '/rtc.html': html(`<p id="out">WebRTC</p><script>
const servers = [{ urls: ['stun:127.0.0.1:${udpPort}', 'stun:0.0.0.0:${udpPort}'] }, { urls: ['turn:127.0.0.1:${i}?transport=tcp', 'turn:0.0.0.0:${i}?transport=tcp'], username: 'u', credential: 'p' }];
const frame = document.body.appendChild(document.createElement('iframe'));
for (const scope of [window, frame.contentWindow]) {
  try {
    const Peer = scope.RTCPeerConnection || scope.webkitRTCPeerConnection;
    const peer = new Peer({ iceServers: servers });
    peer.createDataChannel('x');
    peer.createOffer().then((offer) => peer.setLocalDescription(offer));
    document.getElementById('out').textContent += ' started';
  } catch (error) {
    document.getElementById('out').textContent += ' unavailable';
  }
}
</script>`),
    };
  };

  before(async () => {
    internal = createServer((request, response) => {
      internalSeen.push(`request ${request.url}`);
      response.writeHead(200, { 'content-type': 'text/html' }).end('<p>internal admin page: secret words</p>');
    });
    internal.on('connection', () => internalSeen.push('connection'));
    internal.on('upgrade', (request, socket) => {
      internalSeen.push(`upgrade ${request.url}`);
      socket.destroy();
    });
    await listenOnLoopback(internal);
    internalPort = (internal.address() as AddressInfo).port;
    udp = createSocket('udp4');
    udp.on('message', (message, from) => datagrams.push(`${message.length} bytes from ${from.address}:${from.port}`));
    await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
    udpPort = udp.address().port;

    site = createServer((request, response) => {
      const path = request.url ?? '/';
      siteSeen.push(path);
      const redirect = (location: string) => void response.writeHead(302, { location }).end();
      if (path === '/robots.txt') return void response.writeHead(404).end();
      if (path === '/r-zero') return redirect(`http://0.0.0.0:${internalPort}/via-zero`);
      if (path === '/r-internal') return redirect(`http://127.0.0.1:${internalPort}/via-internal`);
      if (path === '/r-zero-sub') return redirect(`http://0.0.0.0:${internalPort}/via-zero-sub`);
      if (path === '/old.html') return redirect('/new.html');
      if (path === '/r-data') return redirect('/data.json');
      if (path === '/data.json') return void response.writeHead(200, { 'content-type': 'application/json' }).end('{"note":"data reached through a redirect"}');
      if (path === '/spec-rules.json') {
        const rules = { prefetch: [{ source: 'list', urls: [`http://127.0.0.1:${internalPort}/spec-header-prefetch`, '/spec-header-same'] }] };
        return void response.writeHead(200, { 'content-type': 'application/speculationrules+json' }).end(JSON.stringify(rules));
      }
      const page = pages()[path.split('?')[0] ?? ''];
      if (!page) return void response.writeHead(404, { 'content-type': 'text/html' }).end('<p>none</p>');
      // The Speculation-Rules header names rules of its own, as a `<script type="speculationrules">` does.
      const speculation = path === '/speculation.html' ? { 'speculation-rules': '"/spec-rules.json"' } : {};
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...speculation }).end(page);
    });
    site.on('upgrade', (request, socket) => {
      siteSeen.push(`upgrade ${request.url}`);
      socket.destroy();
    });
    origin = await listenOnLoopback(site);
    proxy = await loopbackProxy();
    // Pages wait as long as their scripts fetch: a redirected data request takes two hops through the crawler.
    rt = await openRuntime(
      loadEnv({ WINNOW_DATA_DIR: 'memory', WINNOW_LOG_LEVEL: 'silent', WINNOW_BROWSER_PROXY: proxy.url, WINNOW_BROWSER_SETTLE_MS: '60000' }),
    );
    crawler = startCrawler(rt);
  });

  after(async () => {
    await crawler.close();
    await rt.close();
    for (const server of [site, internal, proxy.server]) {
      await closeServer(server);
    }
    udp.close();
  });

  /** Crawls one page of a fresh browser-rendered site; returns its page record and stored body. */
  async function crawlPage(name: string, path: string, maxDepth = 0): Promise<{ page: Page | undefined; body: string }> {
    internalSeen.length = 0;
    datagrams.length = 0;
    siteSeen.length = 0;
    await addSite(rt, { name, seeds: [`${origin}${path}`], render: 'browser', templateEveryMs: 0, allowPrivateAddresses: true, maxDepth });
    const crawl = await crawlToEnd(rt, (await startCrawl(rt, name)).id, 120_000);
    // A crawl that stored nothing ends `failed`: the redirect tests' do.
    assert.ok(crawl.state === 'finished' || crawl.state === 'failed', crawl.state);
    // Whatever a page started has had time to arrive.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const siteId = (await findSite(rt.db, name))?.id ?? 0;
    const page = await findPageByUrl(rt.db, siteId, `${origin}${path}`);
    const hash = page?.contentHash ?? '';
    const body = hash ? ((await loadBody(rt.bodies, hash))?.toString('utf8') ?? '') : '';
    return { page, body };
  }

  test('popups (window.open, target=_blank links and forms) are never opened: their requests and WebSockets reach nothing', async () => {
    const { page, body } = await crawlPage('popups', '/popup.html');
    assert.match(body, /The page that opens popups/, 'the page itself is rendered');
    assert.deepEqual(internalSeen, []);
    assert.deepEqual(
      siteSeen.filter((path) => path.startsWith('/exfil.html')),
      [],
      'no page but the rendered one loads anything',
    );
    assert.equal(page?.status, 200);
  });

  test("a rendered page's WebSockets are refused, on its own site too", async () => {
    const { body } = await crawlPage('sockets', '/ws.html');
    assert.match(body, /A page with WebSockets/);
    assert.match(body, /data-workers="undefined undefined"/, 'no worker, in the page or a frame of it: its WebSocket would escape routing');
    assert.deepEqual(internalSeen, []);
    assert.deepEqual(
      siteSeen.filter((path) => path.startsWith('upgrade')),
      [],
    );
  });

  test('a redirect of the main document is not followed by Chromium: the crawler judges its target and refuses an internal one', async () => {
    const { page, body } = await crawlPage('redirect-zero', '/r-zero');
    assert.deepEqual(internalSeen, []);
    assert.equal(body, '', 'nothing was stored');
    assert.equal(page?.status, 302);
    assert.match(page?.fetchError ?? '', /^redirect to http:\/\/0\.0\.0\.0:\d+\/via-zero refused: /);
  });

  test('an allowed redirect of the main document moves the page: its target is crawled as a page of its own', async () => {
    const { page } = await crawlPage('redirect-ok', '/old.html', 1);
    assert.equal(page?.status, 302);
    assert.match(page?.fetchError ?? '', /moved to http:\/\/127\.0\.0\.1:\d+\/new\.html/);
    const moved = await findPageByUrl(rt.db, (await findSite(rt.db, 'redirect-ok'))?.id ?? 0, `${origin}/new.html`);
    assert.equal(moved?.status, 200);
    assert.ok(moved?.contentHash, 'the target was rendered and stored');
  });

  test("a page that navigates itself away (a script's location, a form submit, a meta refresh) is stored as it was: never as the browser's error page, and the target is not fetched", async () => {
    for (const [name, path, text] of [
      ['leaves', '/leaves.html', /The page that sends itself to an internal host<\/p><p>Written by its script before it leaves/],
      ['submits', '/submits.html', /The page that submits a form to an internal host/],
      ['refreshes', '/refreshes.html', /The page that refreshes to another/],
    ] as const) {
      const { page, body } = await crawlPage(name, path);
      assert.equal(page?.status, 200, name);
      assert.equal(page?.fetchError ?? null, null, name);
      assert.match(body, text, name);
      assert.doesNotMatch(body, /ERR_BLOCKED_BY_CLIENT|is blocked|has been blocked/, name);
      assert.deepEqual(internalSeen, [], name);
      assert.ok(!siteSeen.includes('/new.html'), `${name}: the target was not fetched`);
    }
  });

  test('redirects of subresources are followed by the crawler, each hop judged: a refused target is not fetched, one on the site is', async () => {
    const { body } = await crawlPage('redirect-sub', '/sub.html');
    assert.deepEqual(internalSeen, []);
    assert.match(body, /data reached through a redirect/);
  });

  test('on a site that allows private addresses, subresources on a private host (redirect targets too) are allowed only on the site itself', async () => {
    const { body } = await crawlPage('private-sub', '/private-sub.html');
    assert.deepEqual(internalSeen, []);
    assert.match(body, /data reached through a redirect/, 'a request to the site itself still works');
  });

  test("speculation rules (prefetch, prerender, in the markup, a script or a header) and preconnects reach nothing: Chromium's own fetches bypass routing, so it connects nowhere", async () => {
    const { body } = await crawlPage('speculation', '/speculation.html');
    assert.match(body, /A page that asks for prefetches and prerenders/, 'the page itself is rendered');
    // Let a prerender started after `load` arrive too.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.deepEqual(internalSeen, []);
    assert.deepEqual(
      siteSeen.filter((path) => path.startsWith('/spec-') && path !== '/spec-rules.json'),
      [],
      "the site's own pages are not prefetched behind the crawler's back either",
    );
  });

  test('WebRTC sends nothing: no STUN datagram, no TURN connection', async () => {
    const { body } = await crawlPage('webrtc', '/rtc.html');
    assert.match(body, /WebRTC unavailable unavailable/, 'RTCPeerConnection is gone, in the page and in a frame of it');
    assert.deepEqual(datagrams, []);
    assert.deepEqual(internalSeen, []);
  });
});

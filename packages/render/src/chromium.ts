import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

export class BrowserUnavailableError extends Error {
  override readonly name = 'BrowserUnavailableError';
}

/** Flags that keep a headless Chromium from reaching for anything but the pages it is given. */
const QUIET_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--dns-prefetch-disable',
  // WebRTC's STUN and TURN traffic (UDP, and TCP to TURN servers) is Chromium's own, outside any
  // request routing: a page could send it to any address. UDP is never proxied, so this turns it off.
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
  // Chromium resolves no host and connects to no address, IP literals and its proxy included:
  // every request a page needs is fulfilled by whoever drives it (the crawler's routes), and
  // what Chromium fetches on its own goes around those routes. Speculation rules (`<script
  // type="speculationrules">`, the `Speculation-Rules` header) prefetch and prerender any URL
  // without passing a route, so a page could otherwise send GETs to any host and port of the
  // crawler's network (cloud metadata included) whatever the network policy says.
  '--host-resolver-rules=MAP * ~NOTFOUND',
];

/**
 * The system Chromium (Playwright without its own download), headless, quiet and cut off from the
 * network: it reaches nothing that its driver does not fulfil. `purpose` opens the error an
 * operator reads when there is none at `executablePath` (`WINNOW_CHROMIUM_PATH`). `proxy`, loopback
 * included, is where a test catches anything Chromium would send itself: nothing reaches it.
 */
export async function launchChromium(executablePath: string, purpose: string, proxy?: string): Promise<Browser> {
  if (!existsSync(executablePath)) {
    throw new BrowserUnavailableError(
      `${purpose}, but there is no Chromium at ${executablePath}: install it (Debian: apt-get install chromium) or set WINNOW_CHROMIUM_PATH`,
    );
  }
  return chromium.launch({ executablePath, headless: true, args: QUIET_FLAGS, ...(proxy ? { proxy: { server: proxy, bypass: '<-loopback>' } } : {}) });
}

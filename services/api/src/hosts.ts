import { BlockList, isIP } from 'node:net';
import { RequestRefusedError } from './errors.js';

/** A `Host` header's parts: the name (lowercase; an IPv6 address keeps its brackets) and the port, if given. */
interface HostAndPort {
  name: string;
  port: number | undefined;
}

/** A host name, an IPv4 address or a bracketed IPv6 address, then an optional port: nothing else (no userinfo, no path). */
const HOST_HEADER = /^(\[[0-9a-f:.]+\]|[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?\.?)(?::(\d{1,5}))?$/i;

function parseHost(value: string): HostAndPort | undefined {
  const match = HOST_HEADER.exec(value.trim());
  if (!match) return undefined;
  return { name: (match[1] as string).toLowerCase().replace(/\.$/, ''), port: match[2] === undefined ? undefined : Number(match[2]) };
}

/** How a bind address is written in a `Host` header: an IPv6 address in brackets. */
function hostName(bindHost: string): string {
  const name = bindHost.toLowerCase();
  return isIP(name) === 6 ? `[${name}]` : name;
}

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

const loopbackAddresses = new BlockList();
loopbackAddresses.addSubnet('127.0.0.0', 8, 'ipv4');
loopbackAddresses.addAddress('::1', 'ipv6');

/** True when a bind address only this machine can reach: `localhost`, 127.0.0.0/8 or ::1. */
export function isLoopbackHost(bindHost: string): boolean {
  const host = bindHost.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (host === 'localhost') return true;
  const family = isIP(host);
  return family !== 0 && loopbackAddresses.check(host, family === 4 ? 'ipv4' : 'ipv6');
}

export interface HostGuardOptions {
  /** The address the API binds (`WINNOW_API_HOST`). */
  bindHost: string;
  /** The port it listens on; read per request, since port 0 is only known once listening. */
  port: () => number;
  /** `WINNOW_API_ALLOWED_HOSTS`: `name` (any port) or `name:port`. */
  allowedHosts: readonly string[];
}

/**
 * The DNS-rebinding guard: a page on an attacker's domain whose name is re-pointed at this API
 * sends the attacker's name as `Host`, so a request is only answered when its `Host` is the API's
 * own address (`WINNOW_API_HOST:WINNOW_API_PORT`), a loopback name with the API's port, or one of
 * `WINNOW_API_ALLOWED_HOSTS` (a name without a port matches it on any port, for proxies that drop
 * the port). A header without a port means port 80. Throws for an allowed entry that is no host.
 */
export function hostGuard(options: HostGuardOptions): (hostHeader: string | undefined) => void {
  const allowed = options.allowedHosts.map((entry) => {
    const parsed = parseHost(entry);
    if (!parsed) throw new Error(`WINNOW_API_ALLOWED_HOSTS: "${entry}" is not a host name or host:port`);
    return parsed;
  });
  const own = [hostName(options.bindHost), ...LOOPBACK_NAMES];
  return (hostHeader) => {
    const host = hostHeader === undefined ? undefined : parseHost(hostHeader);
    if (host) {
      const port = host.port ?? 80;
      if (port === options.port() && own.includes(host.name)) return;
      if (allowed.some((entry) => entry.name === host.name && (entry.port === undefined || entry.port === port))) return;
    }
    const shown = hostHeader === undefined ? 'no Host header' : `Host ${JSON.stringify(hostHeader.slice(0, 100))}`;
    throw new RequestRefusedError('host-foreign', `${shown} is not this API's address; a name clients reach it by must be listed in WINNOW_API_ALLOWED_HOSTS`);
  };
}

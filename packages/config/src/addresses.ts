import ipaddr from 'ipaddr.js';

/** Ranges of hosts on the operator's own networks: refused unless a site allows private addresses. */
const PRIVATE_RANGES: ReadonlySet<string> = new Set(['loopback', 'private', 'uniqueLocal', 'linkLocal', 'carrierGradeNat']);

/** Ranges no website lives in (multicast, broadcast, unspecified, documentation and reserved blocks): always refused. */
const PUBLIC_RANGE = 'unicast';

/**
 * Reserved ranges ipaddr.js does not name, which it would call public `unicast`: IPv4-compatible
 * IPv6 (`::/96`, `[::7f00:1]` for 127.0.0.1), deprecated by RFC 4291 §2.5.5.1 and listed as
 * reserved by IANA; a system that still routes it reaches the IPv4 address it carries. (`::` and
 * `::1` in it keep their own names.)
 */
const UNNAMED_RESERVED = { ipv4Compatible: [ipaddr.IPv6.parseCIDR('::/96')] };

/**
 * Instance-metadata endpoints of cloud providers (AWS, GCP, Azure, OpenStack: 169.254.169.254;
 * AWS ECS: 169.254.170.2; AWS over IPv6: fd00:ec2::254; Alibaba: 100.100.100.200). They hand out
 * credentials to whoever asks from inside the machine, so they are refused even for a site that
 * allows private addresses.
 */
const METADATA_ADDRESSES: ReadonlySet<string> = new Set(['169.254.169.254', '169.254.170.2', 'fd00:ec2::254', '100.100.100.200']);

/** Host names that always mean this machine, whatever a resolver says. */
const LOOPBACK_NAME = /^(?:localhost|localhost\.localdomain|ip6-localhost|ip6-loopback)\.?$|\.localhost\.?$/i;

/**
 * Why the crawler must not connect to `address` (an IP address, as resolved), or null when it may.
 * Public unicast addresses are allowed; the operator's own networks (loopback, RFC 1918, RFC 4193,
 * link-local, CGNAT) only with `allowPrivate`; multicast, broadcast, unspecified, reserved (with
 * `UNNAMED_RESERVED`) and cloud metadata addresses never. An IPv6 address that carries an IPv4 one
 * (IPv4-mapped, NAT64, 6to4, Teredo) is judged by the IPv4 address it reaches.
 */
export function refusedAddress(address: string, allowPrivate: boolean): string | null {
  if (!ipaddr.isValid(address)) return `"${address}" is not an IP address`;
  const parsed = reachedAddress(ipaddr.parse(address));
  const normalized = parsed.toNormalizedString();
  const shown = parsed.toString();
  if (METADATA_ADDRESSES.has(normalized) || METADATA_ADDRESSES.has(shown)) return `${shown} is a cloud metadata address`;
  const named = parsed.range();
  const range = named === PUBLIC_RANGE && parsed.kind() === 'ipv6' ? ipaddr.subnetMatch(parsed, UNNAMED_RESERVED, named) : named;
  if (range === PUBLIC_RANGE) return null;
  if (PRIVATE_RANGES.has(range)) {
    return allowPrivate
      ? null
      : `${shown} is a private address (${range}); the site's configuration must allow private addresses (allowPrivateAddresses: winnow sites add or sites update with --allow-private)`;
  }
  return `${shown} is not a public address (${range})`;
}

/**
 * Why a URL's host is refused before any lookup: an IP literal judged by `refusedAddress`, or a
 * name that always means this machine. Null for other names, which are judged once resolved.
 */
export function refusedHost(hostname: string, allowPrivate: boolean): string | null {
  const host = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  if (ipaddr.isValid(host)) return refusedAddress(host, allowPrivate);
  if (LOOPBACK_NAME.test(host) && !allowPrivate)
    return `${host} is this machine; the site's configuration must allow private addresses (allowPrivateAddresses: winnow sites add or sites update with --allow-private)`;
  return null;
}

/** The IPv4 address an IPv6 address tunnels to, if it is one of the forms that carry one. */
function reachedAddress(address: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | ipaddr.IPv6 {
  if (address.kind() === 'ipv4') return address;
  const v6 = address as ipaddr.IPv6;
  const bytes = v6.toByteArray();
  switch (v6.range()) {
    case 'ipv4Mapped':
    case 'rfc6145':
    case 'rfc6052':
      return new ipaddr.IPv4(bytes.slice(12, 16));
    case '6to4':
      return new ipaddr.IPv4(bytes.slice(2, 6));
    case 'teredo':
      return new ipaddr.IPv4(bytes.slice(12, 16).map((byte) => byte ^ 0xff));
    default:
      return v6;
  }
}

import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** A socket waiting for others to connect or send to it: TCP in LISTEN, or UDP not connected to a peer. */
export interface ListeningSocket {
  pid: number;
  protocol: 'tcp' | 'udp';
  /** `address:port`, IPv6 addresses in brackets. */
  address: string;
}

/** `pid` and every process below it, from /proc. */
export function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // The process ended while we looked.
    }
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i] as number) ?? []));
  return tree;
}

/**
 * Every socket the processes of `pid`'s tree listen on, read from /proc (the socket inodes of
 * each process's open files, matched with the kernel's TCP and UDP tables), so a test sees what
 * an attacker on the network would.
 */
export function listeningSockets(pid: number): ListeningSocket[] {
  const table = socketTable();
  const found: ListeningSocket[] = [];
  for (const member of processTree(pid)) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${member}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      let target: string;
      try {
        target = readlinkSync(`/proc/${member}/fd/${fd}`);
      } catch {
        continue;
      }
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      const socket = inode ? table.get(inode) : undefined;
      if (socket) found.push({ pid: member, ...socket });
    }
  }
  return found;
}

function socketTable(): Map<string, Omit<ListeningSocket, 'pid'>> {
  const table = new Map<string, Omit<ListeningSocket, 'pid'>>();
  for (const [file, protocol, v6] of [
    ['tcp', 'tcp', false],
    ['tcp6', 'tcp', true],
    ['udp', 'udp', false],
    ['udp6', 'udp', true],
  ] as const) {
    let lines: string[];
    try {
      lines = readFileSync(`/proc/net/${file}`, 'utf8').trim().split('\n').slice(1);
    } catch {
      continue;
    }
    for (const line of lines) {
      const fields = line.trim().split(/\s+/);
      const [local = '', remote = '', state = ''] = [fields[1], fields[2], fields[3]];
      const inode = fields[9] ?? '';
      const listening = protocol === 'tcp' ? state === '0A' : /:0000$/.test(remote) && /^0+$/.test(remote.split(':')[0] ?? '');
      if (listening) table.set(inode, { protocol, address: decodeAddress(local, v6) });
    }
  }
  return table;
}

/** /proc/net's `0100007F:1F90` (little-endian words) as `127.0.0.1:8080`. */
function decodeAddress(hex: string, v6: boolean): string {
  const [addressHex = '', portHex = ''] = hex.split(':');
  const port = Number.parseInt(portHex, 16);
  const words = (addressHex.match(/.{8}/g) ?? []).map((word) => (word.match(/../g) ?? []).reverse().join(''));
  if (!v6) return `${(words[0]?.match(/../g) ?? []).map((byte) => Number.parseInt(byte, 16)).join('.')}:${port}`;
  const groups = words.join('').match(/.{4}/g) ?? [];
  const mapped = groups.slice(0, 5).every((group) => group === '0000') && groups[5]?.toLowerCase() === 'ffff';
  if (mapped) return `[::ffff:${(words[3]?.match(/../g) ?? []).map((byte) => Number.parseInt(byte, 16)).join('.')}]:${port}`;
  return `[${groups.map((group) => group.replace(/^0+(?=.)/, '')).join(':')}]:${port}`;
}

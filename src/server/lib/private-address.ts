import net from 'node:net';

/**
 * The address filter of every outbound fetch of a user-supplied address (lib/outbound-http.ts safeFetch). An IPv6
 * address can carry an IPv4 one in several standard ways; each is unwrapped and the IPv4 address
 * judged, so `2002:a9fe:a9fe::`, `64:ff9b::a9fe:a9fe` or a Teredo address of a private server are
 * refused like the IPv4 address they lead to. IPv4-mapped (`::ffff:0:0/96`), IPv4-translated
 * (`::ffff:0:0:0/96`) and IPv4-compatible (`::/96`) addresses are refused whole, whatever they carry:
 * no public host is reached by them, and the socket would talk IPv4 past an IPv6 check.
 */

/** Ranges no fetch may reach: private, loopback, link-local (cloud metadata), CGNAT, documentation, multicast, reserved. */
const blocked = new net.BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(prefix, bits, 'ipv4');
}
for (const [prefix, bits] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(prefix, bits, 'ipv6');
}

/** The 16 bytes of a valid IPv6 address (zone id dropped; `::` and a trailing dotted quad expanded). */
function ipv6Bytes(address: string): number[] {
  let text = address.toLowerCase().split('%')[0] ?? '';
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const groups = (s: string) => (s ? s.split(':') : []);
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const all = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return all.flatMap((g) => {
    const n = parseInt(g, 16);
    return [n >> 8, n & 255];
  });
}

const v4 = (b: number[]) => b.join('.');

/** The IPv4 addresses an IPv6 address leads to: mapped, compatible, NAT64, 6to4, Teredo (server and client). */
function embeddedIpv4(address: string): string[] {
  const b = ipv6Bytes(address);
  const zeros = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  const word = (i: number) => (b[i]! << 8) | b[i + 1]!;
  // 64:ff9b::a.b.c.d (NAT64 well-known prefix).
  if (word(0) === 0x64 && word(2) === 0xff9b && zeros(4, 12)) return [v4(b.slice(12))];
  // 2002:AABB:CCDD::/48 (6to4).
  if (word(0) === 0x2002) return [v4(b.slice(2, 6))];
  // 2001:0000:SERVER:…:~CLIENT (Teredo): the client's address is stored inverted.
  if (word(0) === 0x2001 && word(2) === 0) return [v4(b.slice(4, 8)), v4(b.slice(12).map((x) => x ^ 255))];
  return [];
}

/** ::ffff:a.b.c.d (mapped), ::ffff:0:a.b.c.d (translated, RFC 2765), ::a.b.c.d (compatible, deprecated). */
function carriesIpv4Directly(address: string): boolean {
  const b = ipv6Bytes(address);
  const zeros = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  const word = (i: number) => (b[i]! << 8) | b[i + 1]!;
  if (zeros(0, 10) && word(10) === 0xffff) return true;
  if (zeros(0, 8) && word(8) === 0xffff && word(10) === 0) return true;
  return zeros(0, 12);
}

/** Whether an IP address is one a fetch of someone else's URL must never reach. */
export function isPrivateAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) {
    if (blocked.check(address, 'ipv6') || carriesIpv4Directly(address)) return true;
    return embeddedIpv4(address).some((a) => blocked.check(a, 'ipv4'));
  }
  return true;
}

import { isIPv4, isIPv6 } from 'node:net';

/** The 8 hextets of an IPv6 address (zone id dropped, embedded IPv4 tail converted), or null. */
function ipv6Hextets(ip: string): string[] | null {
  let addr = ip.split('%')[0] ?? '';
  if (!isIPv6(addr)) return null;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(addr);
  if (v4?.[1]) {
    const [a = 0, b = 0, c = 0, d = 0] = v4[1].split('.').map(Number);
    addr = addr.slice(0, -v4[1].length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = addr.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const fill = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...fill, ...right].map((h) => h.toLowerCase().replace(/^0+(?=.)/, ''));
}

/** An IPv4-mapped IPv6 address (::ffff:a.b.c.d) as plain IPv4; anything else unchanged. */
function unmapped(ip: string): string {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  return m?.[1] ?? ip;
}

/**
 * The client a per-IP limit counts. IPv6 clients by their /64: one subscriber line gets a whole /64,
 * so counting single addresses would let anyone rotate through 2^64 of them.
 */
export function clientBucket(ip: string): string {
  const addr = unmapped(ip);
  if (isIPv4(addr)) return addr;
  const h = ipv6Hextets(addr);
  return h ? `${h.slice(0, 4).join(':')}::/64` : addr;
}

/**
 * The network a per-(email, network) limit counts: IPv4 /24, IPv6 /64. Failures from an attacker's
 * network do not slow the same email down from the member's own network.
 */
export function clientNetwork(ip: string): string {
  const addr = unmapped(ip);
  if (isIPv4(addr)) return `${addr.split('.').slice(0, 3).join('.')}.0/24`;
  return clientBucket(addr);
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '::1', 'localhost']);

/**
 * A warning when TRUST_PROXY is a hop count and the server listens beyond loopback: then any client
 * that reaches it directly picks its own X-Forwarded-For and dodges every per-IP limit.
 */
export function trustProxyWarning(config: { TRUST_PROXY?: string | undefined; HOST: string }): string | null {
  if (!config.TRUST_PROXY || !/^\d+$/.test(config.TRUST_PROXY) || config.TRUST_PROXY === '0') return null;
  if (LOOPBACK_HOSTS.has(config.HOST) || config.HOST.startsWith('127.')) return null;
  return (
    `TRUST_PROXY=${config.TRUST_PROXY} trusts X-Forwarded-For from any client while HOST=${config.HOST} accepts direct connections: ` +
    "clients can choose their own address and dodge the rate limits. Set TRUST_PROXY to your proxies' addresses or CIDRs " +
    '(e.g. 10.0.0.0/8), or listen on 127.0.0.1 behind the proxy.'
  );
}

/**
 * The network an admin may see of a listener: IPv4 /24, IPv6 /48 (a site, not a household's /64).
 * Enough to tell two places apart; never the address itself. Not an address at all: 'unknown'.
 */
export function clientNetworkPrefix(ip: string): string {
  const addr = unmapped(ip.trim());
  if (isIPv4(addr)) return `${addr.split('.').slice(0, 3).join('.')}.0/24`;
  const h = ipv6Hextets(addr);
  return h ? `${h.slice(0, 3).join(':')}::/48` : 'unknown';
}

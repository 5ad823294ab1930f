import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { placeOf } from './geo';

type GeoipLite = { lookup(ip: string): { country: string; city: string } | null };

/** A seeded generator, so a failure names addresses that can be tried again. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s;
  };
}

describe('placeOf', () => {
  // geoip-lite's own lookup (all its tables in memory) is the reference for the positioned reads.
  const geoip = createRequire(import.meta.url)('geoip-lite') as GeoipLite;
  const expected = (ip: string) => {
    const hit = geoip.lookup(ip);
    return hit ? { country: hit.country || null, city: hit.city || null } : { country: null, city: null };
  };

  it('answers as geoip-lite does for 5,000 IPv4 and 2,000 IPv6 addresses', () => {
    const next = random(20261127);
    const v4 = Array.from({ length: 5000 }, () => [next() >>> 24, next() >>> 24, next() >>> 24, next() >>> 24].join('.'));
    const v6 = Array.from({ length: 2000 }, () => {
      const groups = Array.from({ length: 8 }, () => (next() >>> 16).toString(16));
      groups[0] = (0x2000 + (next() % 0x1000)).toString(16);
      return groups.join(':');
    });
    const known = ['8.8.8.8', '81.2.69.142', '2a02:8084:1:2::1', '::ffff:81.2.69.142', '2001:db8::1', '10.1.2.3', '192.168.0.1', '127.0.0.1', '::1'];
    let located = 0;
    for (const ip of [...known, ...v4, ...v6]) {
      const place = placeOf(ip);
      expect(place, ip).toEqual(expected(ip));
      if (place.country) located += 1;
    }
    // Most random public addresses have a country: the comparison is not between two empty answers.
    expect(located).toBeGreaterThan(3000);
  });

  it('answers nothing for what is not an address', () => {
    expect(placeOf('not-an-ip')).toEqual({ country: null, city: null });
    expect(placeOf('')).toEqual({ country: null, city: null });
  });
});

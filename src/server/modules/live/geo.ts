import { createRequire } from 'node:module';

export interface Place {
  country: string | null;
  city: string | null;
}

type Lookup = (ip: string) => { country: string; city: string } | null;

let lookup: Lookup | undefined;

/**
 * Country and city of an address, resolved offline by geoip-lite; the address itself is then dropped
 * (docs/decisions/0018-live-monitor-shop-submissions.md). Its tables (about 150 MB) are read on the
 * first heartbeat, not at start: an instance nobody visits never holds them.
 */
export function placeOf(ip: string): Place {
  if (!lookup) {
    const geoip = createRequire(import.meta.url)('geoip-lite') as { lookup: Lookup };
    lookup = (address) => geoip.lookup(address);
  }
  const hit = lookup(ip);
  if (!hit) return { country: null, city: null };
  return { country: hit.country || null, city: hit.city || null };
}

import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';

export interface Place {
  country: string | null;
  city: string | null;
}

/**
 * Country and city of an address, resolved offline from geoip-lite's data files; the address itself
 * is then dropped (docs/decisions/0018-live-monitor-shop-submissions.md).
 *
 * geoip-lite itself reads all 150 MB of its tables into memory on the first lookup: two seconds on
 * the first visitor's heartbeat and about 115 MB held for good. The tables are sorted, fixed-size
 * records, so this reads them where they lie: a binary search of about 22 positioned reads of 24 or
 * 48 bytes, served from the OS page cache after the first visits (tens of microseconds), with
 * nothing loaded at start or kept in the heap (docs/decisions/0034-background-work-off-the-request-path.md).
 * `geo.test.ts` checks every answer against geoip-lite's own lookup.
 */
export function placeOf(ip: string): Place {
  const tables = geoTables();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1];
  const address = mapped ?? ip;
  let locId: number | null = null;
  if (net.isIPv4(address)) {
    const n = ipv4Number(address);
    if (!PRIVATE_V4.some(([from, to]) => n >= from && n <= to)) locId = tables.v4.locate([n]);
  } else if (net.isIPv6(address)) {
    const words = ipv6HighWords(address);
    if (words) locId = tables.v6.locate(words);
  }
  return locId === null ? { country: null, city: null } : tables.names.place(locId);
}

/** The ranges geoip-lite answers nothing for. */
const PRIVATE_V4: [number, number][] = [
  [ipv4Number('10.0.0.0'), ipv4Number('10.255.255.255')],
  [ipv4Number('172.16.0.0'), ipv4Number('172.31.255.255')],
  [ipv4Number('192.168.0.0'), ipv4Number('192.168.255.255')],
];

function ipv4Number(address: string): number {
  return address.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

/** The first 64 bits of an IPv6 address as two unsigned words: what geoip-lite's v6 table is keyed by. */
function ipv6HighWords(address: string): number[] | null {
  const [head = '', tail] = address.split('::');
  const groups = (s: string) => (s === '' ? [] : s.split(':'));
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  if (right.some((g) => g.includes('.')) || left.some((g) => g.includes('.'))) return null;
  const all = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right].map((g) => parseInt(g, 16));
  if (all.length !== 8 || all.some((g) => !Number.isFinite(g))) return null;
  return [(all[0]! * 0x10000 + all[1]!) >>> 0, (all[2]! * 0x10000 + all[3]!) >>> 0];
}

/**
 * A table of sorted [first, last, locId] records, each address `addressBytes` long; ranges are
 * compared on their first `keyWords` 32-bit words (geoip-lite keys IPv6 by its first 64 bits).
 */
class RangeTable {
  private readonly fd: number;
  private readonly count: number;
  private readonly buf: Buffer;

  constructor(
    file: string,
    private readonly recordSize: number,
    private readonly addressBytes: number,
    private readonly keyWords: number,
  ) {
    this.fd = fs.openSync(file, 'r');
    this.count = Math.floor(fs.fstatSync(this.fd).size / recordSize);
    this.buf = Buffer.alloc(recordSize);
  }

  /** The locId of the record whose range holds `key`, or null (no range, or a range without a place). */
  locate(key: number[]): number | null {
    let lo = 0;
    let hi = this.count - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      fs.readSync(this.fd, this.buf, 0, this.recordSize, mid * this.recordSize);
      if (compare(this.word(0), key) > 0) hi = mid - 1;
      else if (compare(this.word(1), key) < 0) lo = mid + 1;
      else {
        const locId = this.buf.readUInt32BE(this.addressBytes * 2);
        return locId === 0xffffffff ? null : locId;
      }
    }
    return null;
  }

  private word(bound: 0 | 1): number[] {
    const at = bound * this.addressBytes;
    return Array.from({ length: this.keyWords }, (_, i) => this.buf.readUInt32BE(at + i * 4));
  }
}

function compare(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  return 0;
}

/** geoip-lite's location records: 88 bytes each, country at 0, city from 42, NUL-padded. */
class PlaceNames {
  private readonly fd: number;
  private readonly buf = Buffer.alloc(88);

  constructor(file: string) {
    this.fd = fs.openSync(file, 'r');
  }

  place(locId: number): Place {
    fs.readSync(this.fd, this.buf, 0, 88, locId * 88);
    const text = (from: number, to: number) => this.buf.toString('utf8', from, to).replace(/\0.*$/s, '');
    return { country: text(0, 2) || null, city: text(42, 88) || null };
  }
}

let tables: { v4: RangeTable; v6: RangeTable; names: PlaceNames } | undefined;

/** Opens geoip-lite's city files (three descriptors, no data read). */
function geoTables() {
  if (!tables) {
    const dir = path.join(path.dirname(createRequire(import.meta.url).resolve('geoip-lite')), '..', 'data');
    tables = {
      v4: new RangeTable(path.join(dir, 'geoip-city.dat'), 24, 4, 1),
      v6: new RangeTable(path.join(dir, 'geoip-city6.dat'), 48, 16, 2),
      names: new PlaceNames(path.join(dir, 'geoip-city-names.dat')),
    };
  }
  return tables;
}

/** Opens the tables at start, so a missing data file fails the start rather than a visitor's heartbeat. */
export function openGeoTables(): void {
  geoTables();
}

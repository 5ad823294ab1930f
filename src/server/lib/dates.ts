import { DAY_MS, HOUR_MS, RADIO_TIME_ZONE } from '../../contracts/time';

/**
 * Days as the radio counts them (src/contracts/time.ts). A date-only expiry ('2026-12-31') means
 * access through that whole day in Dublin: it is stored as the last millisecond of that Dublin day,
 * so the admin pages show the same calendar day back.
 */

/** 'YYYY-MM-DD' (or a full ISO date-time) → Date; undefined when it is not a real date. */
export function parseExpiryDate(value: string): Date | undefined {
  const v = value.trim();
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  if (m) {
    const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
    const noon = new Date(Date.UTC(y, mo - 1, d, 12));
    // Reject 2026-02-30 and friends, which Date would roll over.
    if (noon.getUTCFullYear() !== y || noon.getUTCMonth() !== mo - 1 || noon.getUTCDate() !== d) return undefined;
    if (y < 1970 || y > 2200) return undefined;
    // Noon UTC of the next day is always that same calendar day in Dublin.
    return new Date(startOfDayDublin(new Date(noon.getTime() + DAY_MS)).getTime() - 1);
  }
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(v)) {
    const date = new Date(v);
    return Number.isNaN(date.getTime()) ? undefined : date;
  }
  return undefined;
}

const dublinParts = new Intl.DateTimeFormat('en-GB', {
  timeZone: RADIO_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** Dublin's offset from UTC by UTC hour: offsets change only on the hour, and Intl costs tens of microseconds a call. */
const offsetByHour = new Map<number, number>();
const OFFSETS_KEPT = 100_000;

function dublinOffsetMs(ms: number): number {
  const hourStart = Math.floor(ms / HOUR_MS) * HOUR_MS;
  let offset = offsetByHour.get(hourStart);
  if (offset === undefined) {
    const p = Object.fromEntries(dublinParts.formatToParts(new Date(hourStart)).map((x) => [x.type, x.value]));
    offset = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second)) - hourStart;
    // A bulk import reads thousands of dates, and Date.UTC's range would fill any map.
    if (offsetByHour.size >= OFFSETS_KEPT) offsetByHour.clear();
    offsetByHour.set(hourStart, offset);
  }
  return offset;
}

/** Dublin wall-clock fields of an instant. */
function dublinFields(at: Date): { y: number; mo: number; d: number; h: number; mi: number; s: number } {
  const local = new Date(at.getTime() + dublinOffsetMs(at.getTime()));
  if (Number.isNaN(local.getTime())) throw new RangeError('Invalid time value');
  return {
    y: local.getUTCFullYear(),
    mo: local.getUTCMonth() + 1,
    d: local.getUTCDate(),
    h: local.getUTCHours(),
    mi: local.getUTCMinutes(),
    s: local.getUTCSeconds(),
  };
}

/** The Dublin calendar day of an instant, as YYYY-MM-DD (what parseExpiryDate reads back as that day's end). */
export function dublinDate(at: Date): string {
  const f = dublinFields(at);
  return `${f.y}-${String(f.mo).padStart(2, '0')}-${String(f.d).padStart(2, '0')}`;
}

/** The instant today began in Dublin (the day download limits and "today's downloads" use). */
export function startOfDayDublin(now: Date = new Date()): Date {
  const f = dublinFields(now);
  // Dublin is UTC+0 or UTC+1: guess midnight as UTC, then correct by the offset seen at that guess.
  const guess = Date.UTC(f.y, f.mo - 1, f.d);
  const g = dublinFields(new Date(guess));
  const offsetMs = Date.UTC(g.y, g.mo - 1, g.d, g.h, g.mi, g.s) - guess;
  return new Date(guess - offsetMs);
}

/** The instant tomorrow begins in Dublin (when daily limits reset). Days there are 23 to 25 hours long. */
export function startOfNextDayDublin(now: Date = new Date()): Date {
  return startOfDayDublin(new Date(startOfDayDublin(now).getTime() + 25 * HOUR_MS));
}

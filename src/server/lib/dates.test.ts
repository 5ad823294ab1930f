import { describe, expect, it } from 'vitest';
import { HOUR_MS, RADIO_TIME_ZONE } from '../../contracts/time';
import { dublinDate, parseExpiryDate, startOfDayDublin, startOfNextDayDublin } from './dates';

/** Dublin's calendar day straight from Intl, with no cache in between: what dates.ts must agree with. */
const intlDay = (at: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: RADIO_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);

describe('Dublin days', () => {
  it('agree with Intl on every hour around both clock changes and at random instants', () => {
    // 2026-03-29 01:00 UTC clocks go forward; 2026-10-25 01:00 UTC they go back.
    const around = [Date.UTC(2026, 2, 28), Date.UTC(2026, 9, 24)].flatMap((start) => Array.from({ length: 96 * 4 }, (_, i) => start + i * 15 * 60_000));
    let seed = 7;
    const random = Array.from({ length: 2000 }, () => {
      seed = (seed * 48271) % 2147483647;
      return Date.UTC(1971, 0, 1) + (seed / 2147483647) * 200 * 365 * 24 * HOUR_MS;
    });
    for (const ms of [...around, ...random]) {
      const at = new Date(ms);
      expect(dublinDate(at)).toBe(intlDay(at));
      const start = startOfDayDublin(at);
      expect(intlDay(start)).toBe(intlDay(at));
      expect(intlDay(new Date(start.getTime() - 1))).not.toBe(intlDay(at));
    }
  });

  it('have 23 and 25 hours on the clock-change days', () => {
    const spring = startOfDayDublin(new Date(Date.UTC(2026, 2, 29, 12)));
    const autumn = startOfDayDublin(new Date(Date.UTC(2026, 9, 25, 12)));
    expect(startOfNextDayDublin(spring).getTime() - spring.getTime()).toBe(23 * HOUR_MS);
    expect(startOfNextDayDublin(autumn).getTime() - autumn.getTime()).toBe(25 * HOUR_MS);
  });

  it('read a date-only expiry as the end of that Dublin day, in summer and winter', () => {
    expect(parseExpiryDate('2026-07-01')?.toISOString()).toBe('2026-07-01T22:59:59.999Z');
    expect(parseExpiryDate('2026-12-31')?.toISOString()).toBe('2026-12-31T23:59:59.999Z');
    expect(parseExpiryDate('2026-02-30')).toBeUndefined();
  });

  it('refuse an invalid instant as Intl does', () => {
    expect(() => dublinDate(new Date(Number.NaN))).toThrow(RangeError);
  });
});

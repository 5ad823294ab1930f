import { describe, expect, it } from 'vitest';
import { dublinDay, formatDate, formatDateTime, formatDuration, formatLongDate, formatTime, relativeTime } from './dates';

describe('Europe/Dublin formatting with en-IE', () => {
  it('shows winter times in GMT (UTC+0)', () => {
    const t = '2026-01-15T21:05:00Z';
    expect(formatTime(t)).toBe('21:05');
    expect(formatDate(t)).toBe('15 Jan 2026');
    expect(formatLongDate(t)).toBe('15 January 2026');
    expect(formatDateTime(t)).toBe('15 Jan 2026, 21:05');
  });

  it('shows summer times in IST (UTC+1), crossing midnight into the next Dublin day', () => {
    const t = '2026-07-01T23:30:00Z';
    expect(formatTime(t)).toBe('00:30');
    expect(formatDate(t)).toBe('2 Jul 2026');
    expect(dublinDay(t)).toBe('2026-07-02');
  });

  it('accepts Date objects and epoch milliseconds', () => {
    const d = new Date('2026-03-10T08:00:00Z');
    expect(formatTime(d)).toBe('08:00');
    expect(formatTime(d.getTime())).toBe('08:00');
  });

  it('returns an empty string for missing or unreadable dates', () => {
    for (const v of [null, undefined, '', 'not a date', Number.NaN]) {
      expect(formatDate(v)).toBe('');
      expect(formatTime(v)).toBe('');
      expect(relativeTime(v)).toBe('');
    }
  });
});

describe('relative time', () => {
  const now = new Date('2026-05-20T12:00:00Z');
  const ago = (ms: number) => new Date(now.getTime() - ms);
  const min = 60_000;

  it('says Just now under a minute, and for times in the future', () => {
    expect(relativeTime(ago(0), now)).toBe('Just now');
    expect(relativeTime(ago(59_999), now)).toBe('Just now');
    expect(relativeTime(ago(-5 * min), now)).toBe('Just now');
  });

  it('counts minutes, hours and days, rounding down', () => {
    expect(relativeTime(ago(min), now)).toBe('1m ago');
    expect(relativeTime(ago(59 * min), now)).toBe('59m ago');
    expect(relativeTime(ago(60 * min), now)).toBe('1h ago');
    expect(relativeTime(ago(23 * 60 * min + 59 * min), now)).toBe('23h ago');
    expect(relativeTime(ago(24 * 60 * min), now)).toBe('1d ago');
    expect(relativeTime(ago(10 * 24 * 60 * min), now)).toBe('10d ago');
  });
});

describe('durations', () => {
  it('formats m:ss', () => {
    expect(formatDuration(0)).toBe('0:00');
    expect(formatDuration(65)).toBe('1:05');
    expect(formatDuration(3720)).toBe('62:00');
    expect(formatDuration(-1)).toBe('');
  });
});

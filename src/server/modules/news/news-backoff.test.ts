import { describe, expect, it } from 'vitest';
import { DAY_MS, MINUTE_MS } from '../../../contracts/time';
import { BACKOFF_MAX_MS, nextFetchDelay, shouldPause } from './news-backoff';

const interval = 30 * MINUTE_MS;

describe('nextFetchDelay', () => {
  it('is the poll interval while the source works', () => {
    expect(nextFetchDelay(0, interval, 0.9)).toBe(interval);
  });

  it('doubles from the interval on each failure, jittered by at most 15 %', () => {
    expect(nextFetchDelay(1, interval, 0.5)).toBe(interval);
    expect(nextFetchDelay(2, interval, 0.5)).toBe(2 * interval);
    expect(nextFetchDelay(3, interval, 0.5)).toBe(4 * interval);
    expect(nextFetchDelay(3, interval, 0)).toBe(Math.round(4 * interval * 0.85));
    expect(nextFetchDelay(3, interval, 0.999)).toBeLessThanOrEqual(4 * interval * 1.15);
  });

  it('never waits less than the interval nor more than a day', () => {
    expect(nextFetchDelay(1, interval, 0)).toBe(interval);
    expect(nextFetchDelay(7, interval, 0.999)).toBe(BACKOFF_MAX_MS);
    expect(nextFetchDelay(500, interval, 0.5)).toBe(BACKOFF_MAX_MS);
    expect(nextFetchDelay(500, interval, 0)).toBeGreaterThan(0.8 * DAY_MS);
  });
});

describe('shouldPause', () => {
  it('pauses after 7 days of failures, not before', () => {
    const now = new Date('2026-11-26T12:00:00Z');
    expect(shouldPause(new Date(now.getTime() - 7 * DAY_MS + 1000), now)).toBe(false);
    expect(shouldPause(new Date(now.getTime() - 7 * DAY_MS), now)).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { changedTitle, RECONNECT, reconnectDelayMs } from './icy-titles';

describe('reconnectDelayMs', () => {
  it('retries soon first, then doubles up to the cap', () => {
    // random 0.5: no jitter.
    expect([0, 1, 2, 3, 4].map((n) => reconnectDelayMs(n, 0.5))).toEqual([500, 1000, 2000, 4000, 8000]);
    expect(reconnectDelayMs(6, 0.5)).toBe(RECONNECT.maxMs);
    expect(reconnectDelayMs(1000, 0.5)).toBe(RECONNECT.maxMs);
  });

  it('spreads each wait by the jitter and never passes the cap', () => {
    expect(reconnectDelayMs(0, 0)).toBe(375);
    expect(reconnectDelayMs(0, 0.999_999)).toBe(625);
    expect(reconnectDelayMs(2, 0)).toBe(1500);
    for (const r of [0, 0.3, 0.7, 0.999_999]) expect(reconnectDelayMs(50, r)).toBeLessThanOrEqual(RECONNECT.maxMs);
    expect(reconnectDelayMs(50, 0)).toBe(RECONNECT.maxMs * (1 - RECONNECT.jitter));
  });
});

describe('changedTitle', () => {
  it('reports a new StreamTitle, trimmed', () => {
    expect(changedTitle(undefined, { StreamTitle: ' Kerri Chandler - Rain ' })).toBe('Kerri Chandler - Rain');
    expect(changedTitle('Kerri Chandler - Rain', { StreamTitle: 'Moodymann - Shades Of Jae' })).toBe('Moodymann - Shades Of Jae');
  });

  it('ignores a repeat and a block without a title', () => {
    expect(changedTitle('Kerri Chandler - Rain', { StreamTitle: 'Kerri Chandler - Rain' })).toBeUndefined();
    expect(changedTitle('Kerri Chandler - Rain', { StreamUrl: 'https://example.test/art.jpg' })).toBeUndefined();
  });

  it('reports a title cleared to empty once', () => {
    expect(changedTitle('Kerri Chandler - Rain', { StreamTitle: '' })).toBe('');
    expect(changedTitle('', { StreamTitle: '' })).toBeUndefined();
  });

  it('caps a huge title as the status reader does', () => {
    expect(changedTitle(undefined, { StreamTitle: 'x'.repeat(1000) })).toHaveLength(300);
  });
});

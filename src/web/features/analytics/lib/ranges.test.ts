import { describe, expect, it } from 'vitest';
import { rangeDays, shiftDay } from './ranges';

describe('analytics ranges', () => {
  it('ends a range today and counts today in it, across months and years', () => {
    expect(rangeDays(1, '2026-11-27')).toEqual({ from: '2026-11-27', to: '2026-11-27' });
    expect(rangeDays(7, '2026-03-02')).toEqual({ from: '2026-02-24', to: '2026-03-02' });
    expect(rangeDays(365, '2026-01-01')).toEqual({ from: '2025-01-02', to: '2026-01-01' });
    expect(shiftDay('2026-10-25', 1)).toBe('2026-10-26');
  });
});

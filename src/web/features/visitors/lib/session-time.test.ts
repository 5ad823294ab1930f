import { describe, expect, it } from 'vitest';
import { formatPlace, formatSessionTime } from './session-time';

describe('live monitor formats', () => {
  it('shows session time as Nh Nm', () => {
    expect(formatSessionTime(0)).toBe('0h 0m');
    expect(formatSessionTime(59)).toBe('0h 0m');
    expect(formatSessionTime(5 * 60 + 30)).toBe('0h 5m');
    expect(formatSessionTime(2 * 3600 + 14 * 60 + 59)).toBe('2h 14m');
    expect(formatSessionTime(-5)).toBe('0h 0m');
    expect(formatSessionTime(Number.NaN)).toBe('0h 0m');
  });

  it('names the place as well as it is known', () => {
    expect(formatPlace('Dublin', 'IE')).toBe('Dublin, IE');
    expect(formatPlace(null, 'IE')).toBe('IE');
    expect(formatPlace(null, null)).toBe('Unknown');
  });
});

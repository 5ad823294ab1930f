import { describe, expect, it } from 'vitest';
import { progressFraction } from './ffmpeg';

describe('ffmpeg -progress lines', () => {
  it('turns out_time_us into the fraction of the duration done, capped at 1', () => {
    expect(progressFraction('out_time_us=30000000', 120)).toBe(0.25);
    expect(progressFraction('out_time_us=130000000\n', 120)).toBe(1);
  });

  it('ignores other lines and an unknown duration', () => {
    expect(progressFraction('out_time=00:00:30.000000', 120)).toBeUndefined();
    expect(progressFraction('progress=continue', 120)).toBeUndefined();
    expect(progressFraction('out_time_us=N/A', 120)).toBeUndefined();
    expect(progressFraction('out_time_us=30000000', 0)).toBeUndefined();
  });
});

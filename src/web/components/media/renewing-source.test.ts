import { describe, expect, it } from 'vitest';
import { renewalDelay } from './renewing-source';

describe('renewalDelay', () => {
  it('renews a 15-minute link 30 s before it expires', () => {
    expect(renewalDelay(900_000)).toBe(870_000);
  });

  it('renews a short link a fifth of its life early', () => {
    expect(renewalDelay(3_000)).toBe(2_400);
    expect(renewalDelay(60_000)).toBe(48_000);
  });

  it('renews an expired link at once', () => {
    expect(renewalDelay(0)).toBe(0);
  });
});

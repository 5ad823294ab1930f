import { describe, expect, it } from 'vitest';
import { tokenFromHash } from './fragment-token';

describe('tokenFromHash', () => {
  it('reads the token from a mailed link fragment', () => {
    expect(tokenFromHash('#token=abc-DEF_123')).toBe('abc-DEF_123');
    expect(tokenFromHash('token=xyz')).toBe('xyz');
    expect(tokenFromHash('#other=1&token=t%2Bk')).toBe('t+k');
  });

  it('is empty without a token', () => {
    expect(tokenFromHash('')).toBe('');
    expect(tokenFromHash('#')).toBe('');
    expect(tokenFromHash('#tok=1')).toBe('');
  });
});

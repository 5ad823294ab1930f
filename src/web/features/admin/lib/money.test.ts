import { describe, expect, it } from 'vitest';
import { centsFromInput, centsToEurosInput, daysFromInput, eurosFromInput, formatEuros } from './money';

describe('admin money and day fields', () => {
  it('shows cents as euros', () => {
    expect(formatEuros(1250)).toBe('€12.50');
    expect(formatEuros(0)).toBe('€0.00');
    expect(centsToEurosInput(500)).toBe('5.00');
  });

  it('reads euros typed in a field, empty as 0', () => {
    expect(eurosFromInput('')).toBe(0);
    expect(eurosFromInput('5')).toBe(5);
    expect(eurosFromInput('12,5')).toBe(12.5);
    expect(centsFromInput('12.50')).toBe(1250);
    // 0.1 + 0.2 style float noise must not lose a cent.
    expect(centsFromInput('19.99')).toBe(1999);
    expect(centsFromInput('abc')).toBe(0);
  });

  it('reads expiry days as an integer, empty as 0 = no expiry', () => {
    expect(daysFromInput('')).toBe(0);
    expect(daysFromInput('30')).toBe(30);
    expect(daysFromInput('7.9')).toBe(7);
  });
});

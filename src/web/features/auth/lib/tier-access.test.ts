import { describe, expect, it } from 'vitest';
import { ANONYMOUS_PERMISSIONS } from '../../../../contracts/tier-policy';
import { hasTierAccess, normalizeRequiredTier } from './tier-access';

describe('gate tiers', () => {
  it("reads the required tier in any case, 'premium' as dhr2, and nothing else", () => {
    expect(normalizeRequiredTier('DHR1')).toBe('dhr1');
    expect(normalizeRequiredTier(' Vip ')).toBe('vip');
    expect(normalizeRequiredTier('premium')).toBe('dhr2');
    expect(normalizeRequiredTier('gold')).toBeUndefined();
    expect(normalizeRequiredTier('free')).toBeUndefined();
  });

  it("uses the server's flags, and admins pass every tier", () => {
    const dhr1 = { ...ANONYMOUS_PERMISSIONS, authenticated: true, canAccessDHR1: true };
    expect([hasTierAccess(dhr1, 'dhr1'), hasTierAccess(dhr1, 'dhr2'), hasTierAccess(dhr1, 'vip')]).toEqual([true, false, false]);
    const admin = { ...ANONYMOUS_PERMISSIONS, authenticated: true, isAdmin: true };
    expect([hasTierAccess(admin, 'dhr1'), hasTierAccess(admin, 'dhr2'), hasTierAccess(admin, 'vip')]).toEqual([true, true, true]);
  });
});

import { describe, expect, it } from 'vitest';
import { ANONYMOUS_PERMISSIONS } from '../../../../contracts/tier-policy';
import { grantedTier, hasTierAccess } from './tier-access';

describe('gate tiers', () => {
  it("uses the server's flags, and admins pass every tier", () => {
    const dhr1 = { ...ANONYMOUS_PERMISSIONS, authenticated: true, canAccessDHR1: true };
    expect([hasTierAccess(dhr1, 'dhr1'), hasTierAccess(dhr1, 'dhr2'), hasTierAccess(dhr1, 'vip')]).toEqual([true, false, false]);
    const admin = { ...ANONYMOUS_PERMISSIONS, authenticated: true, isAdmin: true };
    expect([hasTierAccess(admin, 'dhr1'), hasTierAccess(admin, 'dhr2'), hasTierAccess(admin, 'vip')]).toEqual([true, true, true]);
  });

  it('refuses an expired member whose tier still reads vip, and lets anyone through a free requirement', () => {
    const expiredVip = { ...ANONYMOUS_PERMISSIONS, authenticated: true, subscriptionTier: 'vip', subscriptionExpired: true };
    expect(hasTierAccess(expiredVip, 'dhr1')).toBe(false);
    expect(hasTierAccess(ANONYMOUS_PERMISSIONS, 'free')).toBe(true);
  });

  it('names the highest tier the flags grant: free for visitors, the top tier for admins', () => {
    const base = { ...ANONYMOUS_PERMISSIONS, authenticated: true };
    expect(grantedTier(ANONYMOUS_PERMISSIONS)).toBe('free');
    expect(grantedTier(base)).toBe('free');
    expect(grantedTier({ ...base, canAccessDHR1: true, canAccessDHR2: true })).toBe('dhr2');
    expect(grantedTier({ ...base, isAdmin: true })).toBe('vip');
  });
});

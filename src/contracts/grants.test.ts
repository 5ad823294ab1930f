import { describe, expect, it } from 'vitest';
import { bestGrant, classifyChange, endGrant, needsConfirmation, nextPlatformGrant, normaliseGrant, type Grant } from './grants';
import { DAY_MS } from './time';

const NOW = new Date('2026-11-25T12:00:00Z');
const days = (n: number) => new Date(NOW.getTime() + n * DAY_MS);
const g = (fields: Partial<Grant>): Grant => ({ source: 'admin', tier: 'dhr1', status: 'active', expiry: null, pledgeAmountCents: 0, ...fields });

describe('access over time', () => {
  it('takes the highest paid tier of all sources that give access now', () => {
    const admin = g({ source: 'admin', tier: 'dhr1' });
    const bmc = g({ source: 'buymeacoffee', tier: 'vip', pledgeAmountCents: 1000 });
    expect(bestGrant([admin, bmc], NOW)).toBe(bmc);
    // An admin grant lasts until its own expiry, then the platform's grant decides.
    const expiredVip = g({ source: 'admin', tier: 'vip', expiry: days(-1) });
    expect(bestGrant([expiredVip, g({ source: 'patreon', tier: 'dhr2' })], NOW).source).toBe('patreon');
    expect(bestGrant([], NOW)).toMatchObject({ tier: 'free', status: 'inactive' });
  });

  it('keeps paid time when a subscription ends: cancelled with access to the paid-through date, then expired', () => {
    const paid = g({ source: 'buymeacoffee', tier: 'vip', expiry: days(120) });
    expect(endGrant(paid, NOW)).toMatchObject({ status: 'cancelled_with_access', expiry: days(120) });
    // An open-ended grant ends at the platform's paid-through date when known, at once otherwise.
    expect(endGrant(g({ source: 'patreon' }), NOW, days(10))).toMatchObject({ status: 'cancelled_with_access', expiry: days(10) });
    expect(endGrant(g({ source: 'patreon' }), NOW)).toMatchObject({ status: 'cancelled', expiry: null });
    expect(endGrant(g({ expiry: days(-2) }), NOW)).toMatchObject({ status: 'expired' });
    expect(normaliseGrant(g({ status: 'cancelled', expiry: days(3) }), NOW).status).toBe('cancelled_with_access');
    expect(normaliseGrant(g({ status: 'cancelled_with_access', expiry: days(-3) }), NOW).status).toBe('expired');
  });

  it("never cuts a paid period short when a platform's new state gives no access", () => {
    const current = g({ source: 'buymeacoffee', tier: 'vip', expiry: days(90) });
    const cancelledNow = g({ source: 'buymeacoffee', tier: 'vip', status: 'cancelled', expiry: null, pledgeAmountCents: 1000 });
    expect(nextPlatformGrant(current, cancelledNow, NOW)).toMatchObject({ status: 'cancelled_with_access', expiry: days(90) });
    // Nothing paid left: the platform's word stands.
    expect(nextPlatformGrant(g({ source: 'patreon' }), g({ source: 'patreon', status: 'cancelled' }), NOW).status).toBe('cancelled');
    // A platform that gives access replaces whatever was held.
    const active = g({ source: 'patreon', tier: 'dhr2' });
    expect(nextPlatformGrant(current, active, NOW)).toBe(active);
  });

  it('classifies changes, counting an ended subscription as a loss even while access lasts', () => {
    const vip = g({ tier: 'vip' });
    expect(classifyChange(g({ tier: 'free', status: 'inactive' }), vip, NOW)).toBe('gainAccess');
    expect(classifyChange(vip, g({ tier: 'vip', status: 'cancelled' }), NOW)).toBe('loseAccess');
    expect(classifyChange(vip, g({ tier: 'vip', status: 'cancelled_with_access', expiry: days(30) }), NOW)).toBe('loseAccess');
    expect(classifyChange(g({ tier: 'dhr1' }), vip, NOW)).toBe('tierUp');
    expect(classifyChange(vip, g({ tier: 'dhr2' }), NOW)).toBe('tierDown');
    expect(classifyChange(vip, g({ tier: 'vip', expiry: days(9) }), NOW)).toBe('detailsChanged');
    expect(classifyChange(vip, vip, NOW)).toBe('unchanged');
  });

  it('asks for confirmation above 5 members and 2 % of paying members', () => {
    expect(needsConfirmation(5, 10)).toBe(false);
    expect(needsConfirmation(6, 100)).toBe(true);
    expect(needsConfirmation(6, 1000)).toBe(false);
    expect(needsConfirmation(21, 1000)).toBe(true);
  });
});

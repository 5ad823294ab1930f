import { describe, expect, it } from 'vitest';
import {
  accessEnd,
  bestGrant,
  classifyChange,
  endGrant,
  isLoss,
  keepPaidTime,
  needsConfirmation,
  nextPlatformGrant,
  normaliseGrant,
  type Grant,
} from './grants';
import { SUBSCRIPTION_STATUSES, TIERS, type SubscriptionSource } from './tiers';
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
    expect(classifyChange(vip, g({ tier: 'vip', status: 'cancelled_with_access', expiry: days(30) }), NOW)).toBe('stopPaying');
    expect(classifyChange(g({ tier: 'dhr1' }), vip, NOW)).toBe('tierUp');
    expect(classifyChange(vip, g({ tier: 'dhr2' }), NOW)).toBe('tierDown');
    // Access that ends earlier than before is a loss even though the member keeps it for now.
    expect(classifyChange(vip, g({ tier: 'vip', expiry: days(9) }), NOW)).toBe('stopPaying');
    expect(classifyChange(g({ tier: 'vip', expiry: days(9) }), g({ tier: 'vip', expiry: days(30) }), NOW)).toBe('detailsChanged');
    expect(classifyChange(vip, vip, NOW)).toBe('unchanged');
  });

  it('asks for confirmation above 5 members and 2 % of paying members', () => {
    expect(needsConfirmation(5, 10)).toBe(false);
    expect(needsConfirmation(6, 100)).toBe(true);
    expect(needsConfirmation(6, 1000)).toBe(false);
    expect(needsConfirmation(21, 1000)).toBe(true);
  });
});

/** A small seeded generator (mulberry32): the same members every run, so a failure can be replayed. */
function seeded(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T;
  return { next, pick };
}

describe('paid time never shrinks', () => {
  it('keeps an imported paid-through date when Patreon lists the member as a declined patron (the finding)', () => {
    // Imported as paid through 2027-01-03; Patreon: declined, last charge + grace = 2026-12-02.
    const imported = g({ source: 'patreon', tier: 'vip', status: 'active', expiry: new Date('2027-01-03T23:59:59.999Z'), pledgeAmountCents: 1000 });
    const declined = g({ source: 'patreon', tier: 'vip', status: 'active', expiry: new Date('2026-12-02T12:00:00Z'), pledgeAmountCents: 1000 });
    const next = nextPlatformGrant(imported, declined, NOW);
    expect(next).toMatchObject({ status: 'active', expiry: imported.expiry });
    expect(classifyChange(imported, next, NOW)).toBe('unchanged');
    // Without a paid date to keep (an open-ended patron), the grace date is a loss, not a detail.
    const ongoing = g({ source: 'patreon', tier: 'vip', pledgeAmountCents: 1000 });
    const graced = nextPlatformGrant(ongoing, declined, NOW);
    expect(graced.expiry).toEqual(declined.expiry);
    expect(classifyChange(ongoing, graced, NOW)).toBe('stopPaying');
  });

  it('keeps the later date for a lower amount and a cancellation', () => {
    const paid = g({ source: 'buymeacoffee', tier: 'vip', expiry: days(60), pledgeAmountCents: 1000 });
    expect(keepPaidTime(paid, g({ source: 'buymeacoffee', tier: 'dhr1', expiry: days(5), pledgeAmountCents: 300 }), NOW)).toMatchObject({
      tier: 'dhr1',
      expiry: days(60),
    });
    expect(keepPaidTime(paid, g({ source: 'buymeacoffee', tier: 'vip', status: 'cancelled' }), NOW)).toMatchObject({
      status: 'cancelled_with_access',
      expiry: days(60),
    });
  });

  it("property: no change moves a paying member's access end earlier without counting as a loss", () => {
    const rnd = seeded(20261127);
    const SOURCES: SubscriptionSource[] = ['admin', 'patreon', 'buymeacoffee'];
    const randomGrant = (source: SubscriptionSource): Grant => ({
      source,
      tier: rnd.pick(TIERS),
      status: rnd.pick(SUBSCRIPTION_STATUSES),
      expiry: rnd.next() < 0.35 ? null : days(Math.round((rnd.next() - 0.3) * 400)),
      pledgeAmountCents: rnd.pick([0, 300, 500, 1000]),
    });
    let shortenedByPlatform = 0;
    let losses = 0;
    for (let i = 0; i < 20_000; i++) {
      // A member: a grant from some of the sources.
      const before = SOURCES.filter(() => rnd.next() < 0.6).map((s) => normaliseGrant(randomGrant(s), NOW));
      const source = rnd.pick(SOURCES);
      const current = before.find((x) => x.source === source) ?? null;
      // A run: a platform's new state (sync, webhook) through nextPlatformGrant, or any grant (import, revert, admin).
      const platformRun = source !== 'admin' && rnd.next() < 0.7;
      const paidThrough = rnd.next() < 0.5 ? null : days(Math.round((rnd.next() - 0.3) * 200));
      const next = platformRun ? nextPlatformGrant(current, randomGrant(source), NOW, paidThrough) : rnd.next() < 0.1 ? null : randomGrant(source);
      const after = [...before.filter((x) => x.source !== source), ...(next ? [normaliseGrant(next, NOW)] : [])];
      const was = bestGrant(before, NOW);
      const becomes = bestGrant(after, NOW);
      const replay = `seed 20261127, case ${i}`;
      if (platformRun && current && current.expiry && accessEnd(current, NOW) > NOW.getTime() && next) {
        // A platform never ends a dated paid period early.
        expect(accessEnd(next, NOW), replay).toBeGreaterThanOrEqual(current.expiry.getTime());
      }
      if (accessEnd(becomes, NOW) < accessEnd(was, NOW)) {
        if (platformRun) shortenedByPlatform++;
        losses++;
        // Any run that ends access earlier counts it as a loss: previewed, confirmed and held like one.
        expect(isLoss(classifyChange(was, becomes, NOW)), replay).toBe(true);
      }
    }
    // The generator reaches both kinds of runs that shorten access.
    expect(shortenedByPlatform).toBeGreaterThan(100);
    expect(losses).toBeGreaterThan(1000);
  });
});

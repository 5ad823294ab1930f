import { describe, expect, it } from 'vitest';
import { parseBmcSubscription, parsePatreonMember } from '../../src/server/modules/platforms/clients';
import { bestEntitlement, bmcAmountCents, mapEntitlement, parsePlatformDate, type PlatformRecord } from '../../src/server/modules/platforms/mapping';
import { bmcSubscription, patreonMember } from '../support/platform-stubs';

const NOW = new Date('2026-11-21T12:00:00Z');
const day = 24 * 3600 * 1000;
const at = (offsetDays: number) => new Date(NOW.getTime() + offsetDays * day);

function patreon(status: string | null, cents: number, lastChargeAt: Date | null = null, nextChargeAt: Date | null = null): PlatformRecord {
  return {
    platform: 'patreon',
    platformStatus: status,
    amountCents: cents,
    lastChargeAt,
    nextChargeAt,
    periodEndAt: null,
    isCancelled: false,
    cancelledAtPeriodEnd: false,
  };
}
function bmc(cents: number, o: { periodEndAt?: Date | null; isCancelled?: boolean; cancelledAtPeriodEnd?: boolean } = {}): PlatformRecord {
  return {
    platform: 'buymeacoffee',
    platformStatus: o.isCancelled || o.cancelledAtPeriodEnd ? 'cancelled' : 'active',
    amountCents: cents,
    lastChargeAt: null,
    nextChargeAt: null,
    periodEndAt: o.periodEndAt ?? null,
    isCancelled: o.isCancelled ?? false,
    cancelledAtPeriodEnd: o.cancelledAtPeriodEnd ?? false,
  };
}

describe('platform mapping table', () => {
  // [case, record, tier, status, expiry]
  const table: [string, PlatformRecord, string, string, Date | null][] = [
    ['Patreon active 0 EUR', patreon('active_patron', 0), 'free', 'active', null],
    ['Patreon active 2.99 EUR', patreon('active_patron', 299), 'free', 'active', null],
    ['Patreon active 3 EUR', patreon('active_patron', 300), 'dhr1', 'active', null],
    ['Patreon active 4.99 EUR', patreon('active_patron', 499), 'dhr1', 'active', null],
    ['Patreon active 5 EUR', patreon('active_patron', 500), 'dhr2', 'active', null],
    ['Patreon active 9.99 EUR', patreon('active_patron', 999), 'dhr2', 'active', null],
    ['Patreon active 10 EUR', patreon('active_patron', 1000), 'vip', 'active', null],
    ['Patreon active 25 EUR', patreon('active_patron', 2500), 'vip', 'active', null],
    ['Patreon declined 3 days ago: in grace', patreon('declined_patron', 1000, at(-3)), 'vip', 'active', at(4)],
    ['Patreon declined 8 days ago: grace over', patreon('declined_patron', 500, at(-8)), 'dhr2', 'expired', at(-1)],
    ['Patreon declined, only next charge date', patreon('declined_patron', 300, null, at(-2)), 'dhr1', 'active', at(5)],
    ['Patreon declined, no dates', patreon('declined_patron', 300), 'dhr1', 'expired', null],
    ['Patreon former patron', patreon('former_patron', 0, at(-40)), 'free', 'cancelled', null],
    ['Patreon former patron with amount', patreon('former_patron', 1000), 'vip', 'cancelled', null],
    ['Patreon never pledged', patreon(null, 0), 'free', 'cancelled', null],
    ['BMC active 5 EUR', bmc(500, { periodEndAt: at(10) }), 'dhr2', 'active', null],
    ['BMC cancelled at period end, period running', bmc(1000, { periodEndAt: at(10), cancelledAtPeriodEnd: true }), 'vip', 'cancelled_with_access', at(10)],
    ['BMC cancelled at period end, period over', bmc(1000, { periodEndAt: at(-1), cancelledAtPeriodEnd: true, isCancelled: true }), 'vip', 'expired', at(-1)],
    ['BMC cancelled at once', bmc(300, { periodEndAt: at(10), isCancelled: true }), 'dhr1', 'cancelled', null],
  ];

  it.each(table)('%s', (_name, record, tier, status, expiry) => {
    const e = mapEntitlement(record, NOW);
    expect(e.tier).toBe(tier);
    expect(e.status).toBe(status);
    expect(e.expiry?.toISOString() ?? null).toBe(expiry?.toISOString() ?? null);
    expect(e.source).toBe(record.platform);
    expect(e.pledgeAmountCents).toBe(record.amountCents);
  });

  it('multiplies the BMC coffee price (a string) by the number of coffees', () => {
    expect(bmcAmountCents('5.000', 1)).toBe(500);
    expect(bmcAmountCents('5.000', 2)).toBe(1000);
    expect(bmcAmountCents('3.000', '1')).toBe(300);
    expect(bmcAmountCents('2.50', 4)).toBe(1000);
    expect(bmcAmountCents('abc', 1)).toBe(0);
    expect(bmcAmountCents('5.000', null)).toBe(500);
  });

  it('reads platform dates in their several shapes', () => {
    expect(parsePlatformDate('2026-12-01 10:00:00')?.toISOString()).toBe('2026-12-01T10:00:00.000Z');
    expect(parsePlatformDate('2023-04-08T00:00:00.000+00:00')?.toISOString()).toBe('2023-04-08T00:00:00.000Z');
    expect(parsePlatformDate(1_800_000_000)?.toISOString()).toBe(new Date(1_800_000_000_000).toISOString());
    expect(parsePlatformDate('not a date')).toBeNull();
    expect(parsePlatformDate(null)).toBeNull();
  });

  it('parses the documented Patreon member and BMC subscription shapes', () => {
    const p = parsePatreonMember(
      patreonMember({ email: ' Fan@Example.COM ', status: 'active_patron', cents: 500, lastChargeDate: '2026-11-01T00:00:00.000+00:00' }),
    );
    expect(p).toMatchObject({ platform: 'patreon', email: 'fan@example.com', platformStatus: 'active_patron', amountCents: 500 });
    expect(p?.lastChargeAt?.toISOString()).toBe('2026-11-01T00:00:00.000Z');
    expect(parsePatreonMember({ type: 'member', id: 'x', attributes: { patron_status: 'active_patron' } })).toBeNull();

    const b = parseBmcSubscription(
      bmcSubscription({ email: 'Bea@Example.com', price: '5.000', num: 2, cancelledAtPeriodEnd: true, periodEnd: '2026-12-01 10:00:00' }),
    );
    expect(b).toMatchObject({ platform: 'buymeacoffee', email: 'bea@example.com', amountCents: 1000, cancelledAtPeriodEnd: true, isCancelled: false });
    expect(b?.periodEndAt?.toISOString()).toBe('2026-12-01T10:00:00.000Z');
  });

  it('picks the entitlement that gives most when both platforms know an email', () => {
    const best = bestEntitlement([patreon('former_patron', 1000), bmc(500)], NOW);
    expect(best).toMatchObject({ source: 'buymeacoffee', tier: 'dhr2', status: 'active' });
    const higher = bestEntitlement([patreon('active_patron', 1000), bmc(500)], NOW);
    expect(higher).toMatchObject({ source: 'patreon', tier: 'vip' });
    expect(bestEntitlement([], NOW)).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { classifyChange, type Grant } from '../../../contracts/grants';
import { DAY_MS } from '../../../contracts/time';
import type { Tier } from '../../../contracts/tiers';
import type { UserRow } from '../../db/schema';
import { planDifference, planDigest, summarisePlan, type PlannedMember } from './entitlement-service';

const NOW = new Date('2026-11-27T12:00:00Z');
const grant = (fields: Partial<Grant>): Grant => ({ source: 'patreon', tier: 'vip', status: 'active', expiry: null, pledgeAmountCents: 1000, ...fields });

/** A planned change of one member from `before` to `after` (only what the plan summary reads). */
function planned(email: string, before: Grant, after: Grant): PlannedMember {
  return {
    member: { id: `id-${email}`, email } as UserRow,
    before,
    after,
    grantsBefore: [before],
    grantsAfter: [after],
    writes: [{ userId: `id-${email}`, source: after.source, grant: after }],
    kind: classifyChange(before, after, NOW),
    reason: '',
    effectiveChanges: true,
    grantsChange: true,
  };
}
const lose = (email: string, tier: Tier) => planned(email, grant({ tier }), grant({ tier, status: 'cancelled' }));
const stop = (email: string, tier: Tier) =>
  planned(email, grant({ tier }), grant({ tier, status: 'cancelled_with_access', expiry: new Date(NOW.getTime() + 20 * DAY_MS) }));

describe('bulk plans', () => {
  it('samples the most serious first (access lost now, highest tier first), at most 50 of each kind', () => {
    const plan = summarisePlan(
      [stop('s1@x.test', 'vip'), lose('a@x.test', 'dhr1'), lose('b@x.test', 'vip'), ...Array.from({ length: 60 }, (_, i) => stop(`m${i}@x.test`, 'dhr2'))],
      500,
    );
    expect(plan.counts).toMatchObject({ loseAccess: 2, stopPaying: 61 });
    expect(plan.samples.slice(0, 3).map((s) => `${s.kind} ${s.email}`)).toEqual(['loseAccess b@x.test', 'loseAccess a@x.test', 'stopPaying s1@x.test']);
    expect(plan.samples.filter((s) => s.kind === 'stopPaying')).toHaveLength(50);
    expect(plan.needsConfirmation).toBe(true);
  });

  it('names a plan by its exact changes, in any order', () => {
    const a = [lose('a@x.test', 'vip'), stop('b@x.test', 'dhr1')];
    expect(planDigest(a)).toBe(planDigest([...a].reverse()));
    expect(planDigest(a)).not.toBe(planDigest([lose('a@x.test', 'vip'), stop('b@x.test', 'dhr2')]));
    expect(planDigest(a)).toMatch(/^[0-9a-f]{32}$/);
    // A planId not previewed here: the same plan goes ahead, any other is a difference listing every loss.
    expect(planDifference(planDigest(a), a)).toBeNull();
    expect(planDifference('0123', a)).toMatchObject({ known: false, loseAccess: { count: 1, emails: ['a@x.test'] }, stopPaying: { count: 1 } });
  });
});

import { hasActiveSubscription, statusGivesAccess } from './tier-policy';
import { tierRank, type SubscriptionSource, type SubscriptionStatus, type Tier } from './tiers';

/**
 * Access over time, in one place (docs/decisions/0023-member-grants-and-bulk-runs.md).
 *
 * A member holds at most one grant per source (the station's admin grant, Patreon, Buy Me a Coffee).
 * Their effective subscription is the best grant: one that gives access now beats one that does not,
 * then the higher tier, then the later expiry (none = open-ended, the latest). A subscription that
 * ends keeps access until the end of the period already paid for: `cancelled_with_access` until the
 * paid-through date, then `expired`. Free of zod so the web bundle may import it.
 */

export interface Grant {
  source: SubscriptionSource;
  tier: Tier;
  status: SubscriptionStatus;
  expiry: Date | null;
  pledgeAmountCents: number;
}

/** A grant as stored in JSON (history rows, held changes). */
export interface GrantSnapshot {
  source: SubscriptionSource;
  tier: Tier;
  status: SubscriptionStatus;
  /** ISO date-time or null. */
  expiry: string | null;
  pledgeAmountCents: number;
}

/** A member's effective subscription as the history shows it. */
export interface MemberAccessSnapshot {
  tier: Tier;
  status: SubscriptionStatus;
  expiry: string | null;
  source: SubscriptionSource;
}

/** The effective subscription of a member without any grant. */
export const NO_GRANT: Grant = { source: 'admin', tier: 'free', status: 'inactive', expiry: null, pledgeAmountCents: 0 };

export function grantGivesAccess(g: Grant, now: Date = new Date()): boolean {
  return hasActiveSubscription({ isAdmin: false, subscriptionTier: g.tier, subscriptionStatus: g.status, subscriptionExpiry: g.expiry }, now);
}

/** Positive when `a` gives more than `b` now. */
export function compareGrants(a: Grant, b: Grant, now: Date = new Date()): number {
  const accessDiff = Number(grantGivesAccess(a, now)) - Number(grantGivesAccess(b, now));
  if (accessDiff !== 0) return accessDiff;
  const tierDiff = tierRank(a.tier) - tierRank(b.tier);
  if (tierDiff !== 0) return tierDiff;
  const ea = a.expiry?.getTime() ?? Infinity;
  const eb = b.expiry?.getTime() ?? Infinity;
  if (ea !== eb) return ea - eb;
  return a.pledgeAmountCents - b.pledgeAmountCents;
}

/** The grant that decides a member's subscription now; NO_GRANT when there is none. */
export function bestGrant(grants: readonly Grant[], now: Date = new Date()): Grant {
  let best: Grant | null = null;
  for (const g of grants) if (!best || compareGrants(g, best, now) > 0) best = g;
  return best ?? NO_GRANT;
}

/**
 * A grant as it stands now under the paid-time rule: a cancelled subscription whose paid period has
 * not ended is `cancelled_with_access` until then; one that gives access by status but whose expiry
 * has passed is `expired`.
 */
export function normaliseGrant(g: Grant, now: Date = new Date()): Grant {
  const future = g.expiry !== null && g.expiry.getTime() > now.getTime();
  if (g.status === 'cancelled' && future && g.tier !== 'free') return { ...g, status: 'cancelled_with_access' };
  if (statusGivesAccess(g.status) && g.expiry !== null && !future) return { ...g, status: 'expired' };
  return g;
}

/**
 * A subscription that ends now (the platform stopped listing it, a cancellation, a link removed):
 * access lasts until the paid-through date, which is the grant's expiry or else `paidThrough` (the
 * end of the period the platform last charged for); with neither in the future it ends at once.
 */
export function endGrant(g: Grant, now: Date = new Date(), paidThrough: Date | null = null): Grant {
  const candidates = [g.expiry, paidThrough].filter((d): d is Date => d !== null && d.getTime() > now.getTime());
  const until = candidates.length ? new Date(Math.max(...candidates.map((d) => d.getTime()))) : null;
  if (grantGivesAccess(g, now) && until && g.tier !== 'free') return { ...g, status: 'cancelled_with_access', expiry: until };
  if (g.expiry !== null && g.expiry.getTime() <= now.getTime()) return { ...g, status: 'expired' };
  return { ...g, status: g.status === 'inactive' ? 'inactive' : 'cancelled' };
}

/**
 * When a member's access ends under a grant: -Infinity when it gives no access now, the expiry, or
 * +Infinity for an open-ended grant.
 */
export function accessEnd(g: Grant, now: Date = new Date()): number {
  if (!grantGivesAccess(g, now)) return -Infinity;
  return g.expiry?.getTime() ?? Infinity;
}

/**
 * Paid time never shrinks: the one rule every platform change goes through. `next` is what the
 * platform's new state gives; when the grant held gives access to a dated paid-through (an imported
 * or earlier paid date, a period already paid) and `next` would end access earlier (a declined
 * patron's grace date, a lower amount, a cancellation), the later date is kept: with access,
 * `next` lasts to it; without, the subscription ends there (`cancelled_with_access`). An open-ended
 * grant has no paid date to keep: a platform ending it earlier is a loss (`classifyChange`), which
 * bulk runs preview, confirm and hold.
 */
export function keepPaidTime(current: Grant | null, next: Grant, now: Date = new Date(), paidThrough: Date | null = null): Grant {
  if (!current || !grantGivesAccess(current, now)) return next;
  const nextEnd = accessEnd(next, now);
  const paid = Math.max(current.expiry?.getTime() ?? -Infinity, paidThrough && paidThrough.getTime() > now.getTime() ? paidThrough.getTime() : -Infinity);
  if (nextEnd >= paid) return next;
  if (grantGivesAccess(next, now)) return { ...next, expiry: new Date(paid) };
  const ended = endGrant({ ...current, pledgeAmountCents: next.pledgeAmountCents }, now, paidThrough);
  return grantGivesAccess(ended, now) ? ended : next;
}

/**
 * The grant a platform's new state gives, never cutting paid time short (keepPaidTime): when the
 * platform's state gives no access but the grant held did, the subscription ends (endGrant) instead
 * of stopping now; when it gives access ending before the paid-through date, the later date is kept.
 * `paidThrough` is the end of the period the platform last charged for, when it says.
 */
export function nextPlatformGrant(current: Grant | null, fromPlatform: Grant, now: Date = new Date(), paidThrough: Date | null = null): Grant {
  if (grantGivesAccess(fromPlatform, now)) return keepPaidTime(current, fromPlatform, now);
  if (current && grantGivesAccess(current, now)) {
    const ended = endGrant({ ...current, pledgeAmountCents: fromPlatform.pledgeAmountCents }, now, paidThrough);
    // Nothing paid is left: the platform's own words (cancelled, expired) stand.
    return grantGivesAccess(ended, now) ? ended : { ...fromPlatform, status: ended.status === 'expired' ? 'expired' : fromPlatform.status };
  }
  return normaliseGrant(fromPlatform, now);
}

export function sameGrant(a: Grant | null, b: Grant | null): boolean {
  if (!a || !b) return a === b;
  return (
    a.source === b.source &&
    a.tier === b.tier &&
    a.status === b.status &&
    (a.expiry?.getTime() ?? null) === (b.expiry?.getTime() ?? null) &&
    a.pledgeAmountCents === b.pledgeAmountCents
  );
}

export function toGrantSnapshot(g: Grant): GrantSnapshot {
  return { source: g.source, tier: g.tier, status: g.status, expiry: g.expiry ? g.expiry.toISOString() : null, pledgeAmountCents: g.pledgeAmountCents };
}

export function fromGrantSnapshot(s: GrantSnapshot): Grant {
  return { source: s.source, tier: s.tier, status: s.status, expiry: s.expiry ? new Date(s.expiry) : null, pledgeAmountCents: s.pledgeAmountCents };
}

export function toAccessSnapshot(g: Grant): MemberAccessSnapshot {
  return { tier: g.tier, status: g.status, expiry: g.expiry ? g.expiry.toISOString() : null, source: g.source };
}

/**
 * Kinds of change a bulk run's plan counts, by the member's effective subscription before and after.
 * Two kinds are losses: `loseAccess` (access ends now) and `stopPaying` (the subscription ends or
 * its end moves earlier, access lasts to a date).
 */
export const CHANGE_KINDS = ['loseAccess', 'stopPaying', 'tierDown', 'gainAccess', 'tierUp', 'detailsChanged', 'unchanged'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];
export const isLoss = (kind: ChangeKind) => kind === 'loseAccess' || kind === 'stopPaying';

/**
 * What a change does to a member. Access that ends now is `loseAccess`; a subscription the change
 * ends while access lasts to the paid-through date (active → cancelled_with_access), or any change
 * that moves the end of access earlier, is `stopPaying`: both are losses.
 */
export function classifyChange(before: Grant, after: Grant, now: Date = new Date()): ChangeKind {
  const had = grantGivesAccess(before, now);
  const has = grantGivesAccess(after, now);
  if (!had && has) return 'gainAccess';
  if (had && !has) return 'loseAccess';
  if (had && has) {
    if (accessEnd(after, now) < accessEnd(before, now)) return 'stopPaying';
    if (before.status === 'active' && after.status === 'cancelled_with_access') return 'stopPaying';
    const diff = tierRank(after.tier) - tierRank(before.tier);
    if (diff > 0) return 'tierUp';
    if (diff < 0) return 'tierDown';
  }
  return sameGrant(before, after) ? 'unchanged' : 'detailsChanged';
}

/**
 * A bulk run needs an admin's confirmation when it would take access from (or end the subscriptions
 * of) more than CONFIRM_MIN_MEMBERS members and more than CONFIRM_MIN_SHARE of paying members.
 */
export const CONFIRM_MIN_MEMBERS = 5;
export const CONFIRM_MIN_SHARE = 0.02;

export function needsConfirmation(losses: number, payingMembers: number): boolean {
  return losses > CONFIRM_MIN_MEMBERS && losses > CONFIRM_MIN_SHARE * payingMembers;
}

import { compareGrants } from '../../../contracts/grants';
import { tierForPledgeCents } from '../../../contracts/tier-policy';
import type { SubscriptionStatus, Tier } from '../../../contracts/tiers';
import type { Platform } from '../../db/schema';
import { DAY_MS } from '../../../contracts/time';
import { isEmailAddress, normaliseEmail } from '../../../contracts/email';

/**
 * The one mapping from what a platform says about a payer to a DHR subscription (docs/decisions/0006-platform-subscriptions-and-members-admin.md).
 *
 * Rules (all tested in tests/api/platforms-mapping.test.ts):
 * - Amount → tier by tier-policy's PLEDGE_BANDS (tierForPledgeCents): the tier table's pledge minimums, else free.
 * - Patreon active_patron → active, no expiry (access lasts while Patreon says they pay).
 * - Patreon declined_patron → keeps access for a grace of 7 days after the declined charge
 *   (last_charge_date, else next_charge_date): status active with expiry = grace end; after it, expired.
 * - Patreon former_patron (or no patron status) → cancelled, no access.
 * - BMC active → active, no expiry.
 * - BMC cancelled at period end → cancelled_with_access until subscription_current_period_end, then expired.
 * - BMC cancelled at once → cancelled, no access.
 * A member's admin grant is a grant of its own: sync never changes it (contracts/grants.ts).
 * When a platform stops giving access, the member keeps it to the end of the period already paid
 * for (`paidThroughOf`, contracts/grants.ts `nextPlatformGrant`).
 */

export const DECLINED_GRACE_DAYS = 7;

/** The fields of a platform record the mapping reads (a platform_subscriptions row satisfies it). */
export interface PlatformRecord {
  platform: Platform;
  platformStatus: string | null;
  amountCents: number;
  lastChargeAt: Date | null;
  nextChargeAt: Date | null;
  periodEndAt: Date | null;
  isCancelled: boolean;
  cancelledAtPeriodEnd: boolean;
}

export interface Entitlement {
  tier: Tier;
  status: SubscriptionStatus;
  expiry: Date | null;
  source: Platform;
  pledgeAmountCents: number;
}

export function mapEntitlement(r: PlatformRecord, now: Date = new Date()): Entitlement {
  const base = { source: r.platform, pledgeAmountCents: r.amountCents, tier: tierForPledgeCents(r.amountCents) };
  if (r.platform === 'patreon') {
    switch (r.platformStatus) {
      case 'active_patron':
        return { ...base, status: 'active', expiry: null };
      case 'declined_patron': {
        const from = r.lastChargeAt ?? r.nextChargeAt;
        if (!from) return { ...base, status: 'expired', expiry: null };
        const graceEnd = new Date(from.getTime() + DECLINED_GRACE_DAYS * DAY_MS);
        return { ...base, status: graceEnd > now ? 'active' : 'expired', expiry: graceEnd };
      }
      default:
        return { ...base, status: 'cancelled', expiry: null };
    }
  }
  // Buy Me a Coffee.
  if (r.cancelledAtPeriodEnd) {
    if (r.periodEndAt && r.periodEndAt > now) return { ...base, status: 'cancelled_with_access', expiry: r.periodEndAt };
    return { ...base, status: 'expired', expiry: r.periodEndAt };
  }
  if (r.isCancelled) return { ...base, status: 'cancelled', expiry: null };
  return { ...base, status: 'active', expiry: null };
}

/** Of several platform records, the one that gives most: access first, then tier, then the later expiry. */
export function bestEntitlement(records: PlatformRecord[], now: Date = new Date()): Entitlement | null {
  let best: Entitlement | null = null;
  for (const r of records) {
    const e = mapEntitlement(r, now);
    if (!best || compareGrants(e, best, now) > 0) best = e;
  }
  return best;
}

/** Of several records, the one whose entitlement bestEntitlement picks (its paid-through date counts). */
export function bestRecord<R extends PlatformRecord>(records: R[], now: Date = new Date()): R | null {
  let best: { r: R; e: Entitlement } | null = null;
  for (const r of records) {
    const e = mapEntitlement(r, now);
    if (!best || compareGrants(e, best.e, now) > 0) best = { r, e };
  }
  return best?.r ?? null;
}

/** Patreon charges a month ahead. */
export const PATREON_PERIOD_DAYS = 31;

/**
 * The end of the period a payer last paid for, when the platform says: Buy Me a Coffee's current
 * period end; Patreon's last paid charge plus a month. Null when unknown.
 */
export function paidThroughOf(r: PlatformRecord & { lastChargeStatus?: string | null }): Date | null {
  if (r.platform === 'buymeacoffee') return r.periodEndAt;
  if (r.lastChargeAt && (r.lastChargeStatus ?? 'Paid').toLowerCase() === 'paid') return new Date(r.lastChargeAt.getTime() + PATREON_PERIOD_DAYS * DAY_MS);
  return null;
}

// ---------------------------------------------------------------- parsing platform payloads

/** Parses a platform date ('2026-05-01T00:00:00.000+00:00', '2026-05-01 17:57:58' in UTC, or unix seconds); null when absent or bad. */
export function parsePlatformDate(value: unknown): Date | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'number') return Number.isFinite(value) ? new Date(value * 1000) : null;
  if (typeof value !== 'string') return null;
  const s = value.trim();
  if (/^\d{9,11}$/.test(s)) return new Date(Number(s) * 1000);
  // BMC writes "YYYY-MM-DD HH:MM:SS" without zone: UTC.
  const iso = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/.test(s) ? `${s.replace(' ', 'T')}Z` : s;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** BMC sends booleans as true/false, 1/0, "1"/"0", "true"/"false" or null. */
export function parseFlag(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'string') return ['1', 'true', 'yes'].includes(value.trim().toLowerCase());
  return false;
}

/** BMC monthly amount: subscription_coffee_price (a string such as "5.000") times subscription_coffee_num, in cents. */
export function bmcAmountCents(price: unknown, num: unknown): number {
  const p = typeof price === 'number' ? price : typeof price === 'string' ? Number(price.trim()) : NaN;
  const n = num === null || num === undefined || num === '' ? 1 : typeof num === 'number' ? num : Number(num);
  if (!Number.isFinite(p) || !Number.isFinite(n) || p < 0 || n < 0) return 0;
  return Math.round(p * n * 100);
}

/** A payer email as a platform sends it, normalised by the one email rule; null when the rule refuses it. */
export function payerEmail(value: unknown): string | null {
  if (typeof value !== 'string' || !isEmailAddress(value)) return null;
  return normaliseEmail(value);
}

import { hasActiveSubscription } from '../../../contracts/tier-policy';
import type { PlatformSubscriptionRow } from '../../db/schema';
import type { PlatformRecordInput } from './clients';
import { bestEntitlement, mapEntitlement, type Entitlement, type PlatformRecord } from './mapping';

/** One record per (platform, email): when a platform lists an email twice, the one that gives most wins. */
export function dedupeRecords(records: PlatformRecordInput[], now = new Date()): PlatformRecordInput[] {
  const byKey = new Map<string, PlatformRecordInput>();
  for (const r of records) {
    const key = `${r.platform}\u0000${r.email}`;
    const prev = byKey.get(key);
    if (!prev) {
      byKey.set(key, r);
      continue;
    }
    const best = bestEntitlement([asRecord(prev), asRecord(r)], now);
    const prevE = mapEntitlement(asRecord(prev), now);
    byKey.set(key, best && sameEntitlement(best, prevE) ? prev : r);
  }
  return [...byKey.values()];
}

function sameEntitlement(a: Entitlement, b: Entitlement): boolean {
  return a.tier === b.tier && a.status === b.status && a.pledgeAmountCents === b.pledgeAmountCents && a.expiry?.getTime() === b.expiry?.getTime();
}

function asRecord(r: PlatformRecordInput) {
  return {
    platform: r.platform,
    platformStatus: r.platformStatus ?? null,
    amountCents: r.amountCents ?? 0,
    lastChargeAt: r.lastChargeAt ?? null,
    nextChargeAt: r.nextChargeAt ?? null,
    periodEndAt: r.periodEndAt ?? null,
    isCancelled: r.isCancelled ?? false,
    cancelledAtPeriodEnd: r.cancelledAtPeriodEnd ?? false,
  };
}

/** Whether a record gives access now (an unmatched one is a paying supporter nobody sees). */
export function recordGivesAccess(r: PlatformSubscriptionRow | PlatformRecord, now: Date = new Date()): boolean {
  const e = mapEntitlement(r, now);
  return (
    e.tier !== 'free' && hasActiveSubscription({ isAdmin: false, subscriptionTier: e.tier, subscriptionStatus: e.status, subscriptionExpiry: e.expiry }, now)
  );
}

/** Whether a record just listed by a platform gives access now (a listing's active supporters). */
export function listedGivesAccess(r: PlatformRecordInput, now: Date = new Date()): boolean {
  return recordGivesAccess(asRecord(r), now);
}

/**
 * A fetched record as upsertPlatformRecords stores it (the columns it leaves out take their
 * defaults): a sync plans from the records it is about to store, before it writes any.
 */
export function asStoredRecord(r: PlatformRecordInput, lastEvent: string, now: Date): PlatformSubscriptionRow {
  return {
    externalId: null,
    platformUserId: null,
    fullName: null,
    platformStatus: null,
    amountCents: 0,
    lastChargeAt: null,
    nextChargeAt: null,
    lastChargeStatus: null,
    periodEndAt: null,
    isCancelled: false,
    cancelledAtPeriodEnd: false,
    cancelledAt: null,
    raw: {},
    ...r,
    lastEvent,
    updatedAt: now,
  };
}

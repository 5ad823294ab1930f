import { and, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import { statusGivesAccess } from '../../../contracts/tier-policy';
import type { Db } from '../../db/client';
import {
  platformSubscriptions,
  syncRuns,
  webhookDeliveries,
  type Platform,
  type PlatformSubscriptionRow,
  type SyncRunRow,
  type UserRow,
} from '../../db/schema';
import type { PlatformSubscriber } from '../auth/platform-subscribers';
import { findMembersByEmails, findMembersMatching, updateMember } from '../members/members-repository';
import type { PlatformRecordInput } from './clients';
import { bestEntitlement, entitlementChanges, mapEntitlement, syncMayOverwrite, type Entitlement } from './mapping';
import { DAY_MS } from '../../../contracts/time';

const CHUNK = 500;

function chunks<T>(list: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

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

/** Inserts or replaces platform records (keyed by platform + email). */
export async function upsertPlatformRecords(db: Db, records: PlatformRecordInput[], lastEvent: string, now = new Date()): Promise<void> {
  for (const part of chunks(dedupeRecords(records, now))) {
    await db
      .insert(platformSubscriptions)
      .values(part.map((r) => ({ ...r, lastEvent, updatedAt: now })))
      .onConflictDoUpdate({
        target: [platformSubscriptions.platform, platformSubscriptions.email],
        set: {
          externalId: sql`excluded.external_id`,
          fullName: sql`excluded.full_name`,
          platformStatus: sql`excluded.platform_status`,
          amountCents: sql`excluded.amount_cents`,
          lastChargeAt: sql`excluded.last_charge_at`,
          nextChargeAt: sql`excluded.next_charge_at`,
          lastChargeStatus: sql`excluded.last_charge_status`,
          periodEndAt: sql`excluded.period_end_at`,
          isCancelled: sql`excluded.is_cancelled`,
          cancelledAtPeriodEnd: sql`excluded.cancelled_at_period_end`,
          cancelledAt: sql`excluded.cancelled_at`,
          raw: sql`excluded.raw`,
          lastEvent: sql`excluded.last_event`,
          updatedAt: sql`excluded.updated_at`,
        },
      });
  }
}

/** After a complete listing: drop the platform's records for emails it no longer lists. Returns the dropped emails. */
export async function deleteUnlisted(db: Db, platform: Platform, listed: Set<string>): Promise<string[]> {
  const existing = await db
    .select({ email: platformSubscriptions.email })
    .from(platformSubscriptions)
    .where(eq(platformSubscriptions.platform, platform));
  const gone = existing.map((r) => r.email).filter((e) => !listed.has(e));
  for (const part of chunks(gone)) {
    await db
      .delete(platformSubscriptions)
      .where(and(eq(platformSubscriptions.platform, platform), inArray(platformSubscriptions.email, part)));
  }
  return gone;
}

/**
 * What the platforms entitle this email to right now (the best of its Patreon / Buy Me a Coffee
 * records), in the shape sign-in's PlatformSubscribers seam expects, with the payer's name split in
 * two; null when neither knows the email. Sign-in by link uses it to create a paying member's
 * account with the right tier.
 */
export async function platformSubscriberFor(db: Db, email: string, now: Date = new Date()): Promise<PlatformSubscriber | null> {
  const e = email.trim().toLowerCase();
  const rows = await db.select().from(platformSubscriptions).where(eq(platformSubscriptions.email, e));
  const best = bestEntitlement(rows, now);
  if (!best) return null;
  const name = rows.find((r) => r.platform === best.source)?.fullName?.trim() ?? '';
  const [first, ...rest] = name.split(/\s+/).filter(Boolean);
  return {
    email: e,
    tier: best.tier,
    status: best.status,
    expiry: best.expiry,
    source: best.source,
    pledgeAmountCents: best.pledgeAmountCents,
    firstName: first?.slice(0, 100) ?? null,
    lastName: rest.length ? rest.join(' ').slice(0, 100) : null,
  };
}

export interface ReconcileScope {
  /** Users with these emails (lower-cased). */
  emails?: string[];
  /** Every user that has a platform record. */
  allWithRecords?: boolean;
  /** Platforms whose full listing succeeded: their members absent from it lose platform access. */
  completeListings?: Platform[];
}

/**
 * Writes each affected member's platform entitlement onto their users row (sessions read the row on
 * every request, so access changes at once). Admin-sourced paid assignments are left alone.
 * Returns how many members' tier, status, expiry or amount changed.
 */
export async function reconcileUsers(db: Db, scope: ReconcileScope, now: Date = new Date()): Promise<number> {
  const targets: UserRow[] = await findMembersMatching(db, {
    ...(scope.allWithRecords ? { emailIn: sql`select ${platformSubscriptions.email} from ${platformSubscriptions}` } : {}),
    ...(scope.completeListings?.length ? { sources: scope.completeListings } : {}),
  });
  targets.push(...(await findMembersByEmails(db, scope.emails ?? [])));
  if (!targets.length) return 0;

  const emails = [...new Set(targets.map((u) => u.email))];
  const recordsByEmail = new Map<string, PlatformSubscriptionRow[]>();
  for (const part of chunks(emails)) {
    const rows = await db.select().from(platformSubscriptions).where(inArray(platformSubscriptions.email, part));
    for (const r of rows) {
      const list = recordsByEmail.get(r.email) ?? [];
      list.push(r);
      recordsByEmail.set(r.email, list);
    }
  }

  const complete = new Set<string>(scope.completeListings ?? []);
  const seen = new Set<string>();
  let changed = 0;
  for (const u of targets) {
    if (seen.has(u.id)) continue;
    seen.add(u.id);
    if (!syncMayOverwrite(u)) continue;
    let e = bestEntitlement(recordsByEmail.get(u.email) ?? [], now);
    if (!e) {
      // The platform that granted this member's access no longer lists them: the access ends.
      const lost = complete.has(u.subscriptionSource);
      const hadAccess = statusGivesAccess(u.subscriptionStatus);
      if (!lost || !hadAccess) continue;
      e = {
        tier: u.subscriptionTier,
        status: 'cancelled',
        expiry: u.subscriptionExpiry,
        source: u.subscriptionSource as Platform,
        pledgeAmountCents: u.pledgeAmountCents,
      };
    }
    const differs = entitlementChanges(u, e);
    if (!differs && u.subscriptionSource === e.source) continue;
    await updateMember(
      db,
      u.id,
      {
        subscriptionTier: e.tier,
        subscriptionStatus: e.status,
        subscriptionExpiry: e.expiry,
        subscriptionSource: e.source,
        pledgeAmountCents: e.pledgeAmountCents,
      },
      now,
    );
    if (differs) changed++;
  }
  return changed;
}

/** Deliveries kept for replay protection; platforms stop retrying long before this. */
export const DELIVERY_RETENTION_DAYS = 180;
/** Sync runs kept for the dashboard's history. */
export const SYNC_RUN_RETENTION_DAYS = 90;

/** Drops replay records and sync runs past their retention. */
export async function pruneOldRecords(db: Db, now: Date = new Date()): Promise<void> {
  await db.delete(webhookDeliveries).where(lt(webhookDeliveries.receivedAt, new Date(now.getTime() - DELIVERY_RETENTION_DAYS * DAY_MS)));
  await db.delete(syncRuns).where(lt(syncRuns.finishedAt, new Date(now.getTime() - SYNC_RUN_RETENTION_DAYS * DAY_MS)));
}

/** Records one finished sync run (the dashboard shows the latest). */
export async function recordSyncRun(db: Db, run: Omit<typeof syncRuns.$inferInsert, 'id'>): Promise<void> {
  await db.insert(syncRuns).values(run);
}

/** The latest recorded runs, newest first. */
export async function recentSyncRuns(db: Db, limit = 20): Promise<SyncRunRow[]> {
  return db.select().from(syncRuns).orderBy(desc(syncRuns.finishedAt), desc(syncRuns.id)).limit(limit);
}

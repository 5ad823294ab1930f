import { and, desc, eq, inArray, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  platformSubscriptions,
  syncRuns,
  webhookDeliveries,
  type Platform,
  type PlatformSubscriptionRow,
  type SyncRunRow,
  type SyncRunState,
  type UserRow,
} from '../../db/schema';
import type { PlatformSubscriber } from '../auth/platform-subscribers';
import { findMembersByEmails, findMembersByIds } from '../members/members-repository';
import { linksOfMembers, linksWithKeys, type Identity } from './links-repository';
import type { PlatformRecordInput } from './clients';
import { bestEntitlement } from './mapping';
import { dedupeRecords, recordGivesAccess } from './platform-records';
import { DAY_MS, MINUTE_MS } from '../../../contracts/time';

const CHUNK = 500;

function chunks<T>(list: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
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
          platformUserId: sql`excluded.platform_user_id`,
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
  const existing = await db.select({ email: platformSubscriptions.email }).from(platformSubscriptions).where(eq(platformSubscriptions.platform, platform));
  const gone = existing.map((r) => r.email).filter((e) => !listed.has(e));
  for (const part of chunks(gone)) {
    await db.delete(platformSubscriptions).where(and(eq(platformSubscriptions.platform, platform), inArray(platformSubscriptions.email, part)));
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
  const stored = await db.select().from(platformSubscriptions).where(eq(platformSubscriptions.email, e));
  // A record linked to an account (Connect Patreon, a claim) belongs to that account, not to a new one.
  const owners = await resolveOwners(db, stored);
  const rows = stored.filter((r) => owners.get(r) === null);
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

/** The stored records under these payer emails or Patreon user ids. */
export async function recordsWhere(db: Db, column: 'email' | 'platformUserId', values: string[]): Promise<PlatformSubscriptionRow[]> {
  const out: PlatformSubscriptionRow[] = [];
  const col = column === 'email' ? platformSubscriptions.email : platformSubscriptions.platformUserId;
  for (const part of chunks([...new Set(values)])) out.push(...(await db.select().from(platformSubscriptions).where(inArray(col, part))));
  return out;
}

/** Every stored record (a sync's reconcile reads them all). */
export async function allPlatformRecords(db: Db): Promise<PlatformSubscriptionRow[]> {
  return db.select().from(platformSubscriptions);
}

/** The emails of all stored records, as a subquery. */
export function platformRecordEmails() {
  return sql`select ${platformSubscriptions.email} from ${platformSubscriptions}`;
}

/**
 * The member each record feeds (docs/decisions/0019-supporter-links.md): an account linked to the
 * record's Patreon user id first, then an account linked to its payer email, then the account with
 * the record's email, unless that account is linked to another Patreon user (a linked id is
 * authoritative over the email for its account).
 */
export async function resolveOwners(db: Db, records: PlatformSubscriptionRow[]): Promise<Map<PlatformSubscriptionRow, UserRow | null>> {
  const owners = new Map<PlatformSubscriptionRow, UserRow | null>();
  if (!records.length) return owners;
  const links = await linksWithKeys(
    db,
    records.flatMap((r) => (r.platformUserId ? [r.email, r.platformUserId] : [r.email])),
  );
  const linkOwner = new Map(links.map((l) => [`${l.platform}\u0000${l.kind}\u0000${l.key}`, l.userId]));
  const byEmail = new Map((await findMembersByEmails(db, [...new Set(records.map((r) => r.email))])).map((u) => [u.email, u]));
  const linkedIds = [...new Set(links.map((l) => l.userId))].filter((id) => ![...byEmail.values()].some((u) => u.id === id));
  const byId = new Map([...byEmail.values(), ...(await findMembersByIds(db, linkedIds))].map((u) => [u.id, u]));
  // The Patreon user each email-matched member is linked to, if any.
  const patreonIdOf = new Map(
    (
      await linksOfMembers(
        db,
        [...byEmail.values()].map((u) => u.id),
      )
    )
      .filter((l) => l.platform === 'patreon' && l.kind === 'user_id')
      .map((l) => [l.userId, l.key]),
  );
  for (const r of records) {
    const viaId = r.platformUserId ? linkOwner.get(`${r.platform}\u0000user_id\u0000${r.platformUserId}`) : undefined;
    const viaEmail = linkOwner.get(`${r.platform}\u0000email\u0000${r.email}`);
    const linked = viaId ?? viaEmail;
    if (linked) {
      owners.set(r, byId.get(linked) ?? null);
      continue;
    }
    const u = byEmail.get(r.email);
    const linkedElsewhere = u && r.platform === 'patreon' && r.platformUserId && patreonIdOf.has(u.id) && patreonIdOf.get(u.id) !== r.platformUserId;
    owners.set(r, u && !linkedElsewhere ? u : null);
  }
  return owners;
}

/** Active platform supporters that feed no account: the reconciliation page's list, newest first. */
export async function unmatchedSupporters(db: Db, now: Date = new Date()): Promise<PlatformSubscriptionRow[]> {
  // Statuses that may give access (the mapping decides for each row).
  const rows = await db
    .select()
    .from(platformSubscriptions)
    .where(
      or(
        inArray(platformSubscriptions.platformStatus, ['active_patron', 'declined_patron']),
        and(
          eq(platformSubscriptions.platform, 'buymeacoffee'),
          or(eq(platformSubscriptions.isCancelled, false), eq(platformSubscriptions.cancelledAtPeriodEnd, true)),
        ),
      ),
    )
    .orderBy(desc(platformSubscriptions.updatedAt));
  const active = rows.filter((r) => recordGivesAccess(r, now));
  const owners = await resolveOwners(db, active);
  return active.filter((r) => owners.get(r) === null);
}

/** One stored record by its key, or null. */
export async function findPlatformRecord(db: Db, platform: Platform, email: string): Promise<PlatformSubscriptionRow | null> {
  const [row] = await db
    .select()
    .from(platformSubscriptions)
    .where(and(eq(platformSubscriptions.platform, platform), eq(platformSubscriptions.email, email)));
  return row ?? null;
}

/** The records feeding a member (user management shows them), with the member's links. */
export async function recordsFeedingMember(db: Db, member: UserRow): Promise<PlatformSubscriptionRow[]> {
  const links = await linksOfMembers(db, [member.id]);
  const candidates = [
    ...(await recordsWhere(db, 'email', [member.email, ...links.filter((l) => l.kind === 'email').map((l) => l.key)])),
    ...(await recordsWhere(
      db,
      'platformUserId',
      links.filter((l) => l.kind === 'user_id').map((l) => l.key),
    )),
  ];
  const unique = [...new Map(candidates.map((r) => [`${r.platform}\u0000${r.email}`, r])).values()];
  const owners = await resolveOwners(db, unique);
  return unique.filter((r) => owners.get(r)?.id === member.id);
}

/**
 * A member's platform identities: the payer emails and Patreon user ids of their links and of the
 * records that are theirs (under their email, a linked email or a linked Patreon user id), and their
 * own email when asked (`withOwnEmail`). What a ban records (comment-rules' activeBan).
 */
export async function platformIdentitiesOf(db: Db, member: UserRow, withOwnEmail: boolean): Promise<Identity[]> {
  const links = await linksOfMembers(db, [member.id]);
  const emails = new Set([member.email, ...links.filter((l) => l.kind === 'email').map((l) => l.key)]);
  const patreonIds = new Set(links.filter((l) => l.kind === 'user_id').map((l) => l.key));
  const where = or(
    inArray(platformSubscriptions.email, [...emails]),
    ...(patreonIds.size ? [inArray(platformSubscriptions.platformUserId, [...patreonIds])] : []),
  );
  const records = await db.select().from(platformSubscriptions).where(where);
  const payerEmails = new Set([...links.filter((l) => l.kind === 'email').map((l) => l.key), ...records.map((r) => r.email)]);
  if (withOwnEmail) payerEmails.add(member.email);
  for (const r of records) if (r.platformUserId) patreonIds.add(r.platformUserId);
  return [...[...payerEmails].map((key): Identity => ({ kind: 'email', key })), ...[...patreonIds].map((key): Identity => ({ kind: 'user_id', key }))];
}

/**
 * Other accounts that share a platform identity with `member`: a payer email or a Patreon user id
 * that is the member's own email, one of their links, or the key of a record feeding them, and that
 * is also another account's email, another account's link, or a record feeding another account.
 * The comments module treats a ban on any of them as a ban on all (comment-rules' activeBan).
 */
export async function accountsSharingIdentity(db: Db, member: UserRow): Promise<string[]> {
  // A member's identities are few (their email, a handful of links and records): no chunking needed.
  const recordsUnder = async (emails: Iterable<string>, patreonIds: Iterable<string>): Promise<PlatformSubscriptionRow[]> => {
    const e = [...new Set(emails)];
    const p = [...new Set(patreonIds)];
    const where = or(...(e.length ? [inArray(platformSubscriptions.email, e)] : []), ...(p.length ? [inArray(platformSubscriptions.platformUserId, p)] : []));
    return where ? db.select().from(platformSubscriptions).where(where) : [];
  };
  const ownLinks = await linksOfMembers(db, [member.id]);
  const ownRecords = await recordsUnder(
    [member.email, ...ownLinks.filter((l) => l.kind === 'email').map((l) => l.key)],
    ownLinks.filter((l) => l.kind === 'user_id').map((l) => l.key),
  );
  const emails = new Set([member.email, ...ownLinks.filter((l) => l.kind === 'email').map((l) => l.key), ...ownRecords.map((r) => r.email)]);
  const patreonIds = new Set([
    ...ownLinks.filter((l) => l.kind === 'user_id').map((l) => l.key),
    ...ownRecords.flatMap((r) => (r.platformUserId ? [r.platformUserId] : [])),
  ]);
  const others = new Set<string>();
  for (const u of await findMembersByEmails(db, [...emails])) others.add(u.id);
  for (const l of await linksWithKeys(db, [...emails, ...patreonIds])) {
    if ((l.kind === 'email' && emails.has(l.key)) || (l.kind === 'user_id' && patreonIds.has(l.key))) others.add(l.userId);
  }
  // Records under the same payer (email or Patreon user) feed whoever resolveOwners says.
  for (const owner of (await resolveOwners(db, await recordsUnder(emails, patreonIds))).values()) if (owner) others.add(owner.id);
  others.delete(member.id);
  return [...others];
}

/** Records a webhook delivery; false when its key was seen before (a replay). */
export async function recordDelivery(db: Db, d: { platform: Platform; deliveryKey: string; event: string; email: string | null }): Promise<boolean> {
  const inserted = await db.insert(webhookDeliveries).values(d).onConflictDoNothing().returning({ key: webhookDeliveries.deliveryKey });
  return inserted.length > 0;
}

/** The stored record's last charge date, if any. */
export async function storedLastCharge(db: Db, platform: Platform, email: string): Promise<Date | null> {
  const [row] = await db
    .select({ lastChargeAt: platformSubscriptions.lastChargeAt })
    .from(platformSubscriptions)
    .where(and(eq(platformSubscriptions.platform, platform), eq(platformSubscriptions.email, email)));
  return row?.lastChargeAt ?? null;
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

/** Records one finished sync run (the dashboard shows the latest); returns its id. */
export async function recordSyncRun(db: Db, run: Omit<typeof syncRuns.$inferInsert, 'id'>): Promise<number> {
  const [row] = await db.insert(syncRuns).values(run).returning({ id: syncRuns.id });
  if (!row) throw new Error('sync run insert returned nothing');
  return row.id;
}

/**
 * Opens a run before its changes are written (they name it); finishSyncRun fills in the outcome. A
 * bulk run written in chunks opens it 'applying' (advanceSyncRun after each chunk).
 */
export async function startSyncRun(
  db: Db,
  trigger: SyncRunRow['trigger'],
  startedAt: Date,
  startedBy: string | null = null,
  state: SyncRunState = 'done',
): Promise<number> {
  return recordSyncRun(db, { trigger, startedAt, finishedAt: startedAt, ok: true, updated: 0, platforms: [], errors: [], details: [], startedBy, state });
}

/** A chunk of an applying run is written: its count grows and finished_at says when it last wrote. */
export async function advanceSyncRun(db: Db, id: number, updated: number, at: Date = new Date()): Promise<void> {
  await db
    .update(syncRuns)
    .set({ updated: sql`${syncRuns.updated} + ${updated}`, finishedAt: at })
    .where(eq(syncRuns.id, id));
}

/** A run that stopped part-way: what it applied stays (and can be reverted); running it again applies the rest. */
export async function markRunInterrupted(db: Db, id: number, error: string): Promise<void> {
  await db
    .update(syncRuns)
    .set({ state: 'interrupted', ok: false, errors: [error], finishedAt: new Date() })
    .where(and(eq(syncRuns.id, id), eq(syncRuns.state, 'applying')));
}

/**
 * A run still 'applying' that wrote no chunk for this long was left by a process that stopped (a
 * restart mid-run): the sync log shows it interrupted (a chunk writes in well under a second).
 */
export const APPLYING_RUN_STALE_MS = 5 * MINUTE_MS;

export async function finishSyncRun(db: Db, id: number, outcome: Partial<Omit<typeof syncRuns.$inferInsert, 'id'>>): Promise<void> {
  await db
    .update(syncRuns)
    .set({ finishedAt: new Date(), ...outcome })
    .where(eq(syncRuns.id, id));
}

/**
 * Marks a run reverted by another; false when it already was (two reverts at once: one wins). A
 * revert that finishes an interrupted one names it as `replacing`.
 */
export async function markRunReverted(db: Db, id: number, byRun: number, at: Date = new Date(), replacing: number | null = null): Promise<boolean> {
  const rows = await db
    .update(syncRuns)
    .set({ revertedAt: at, revertedByRun: byRun })
    .where(and(eq(syncRuns.id, id), replacing === null ? isNull(syncRuns.revertedAt) : or(isNull(syncRuns.revertedAt), eq(syncRuns.revertedByRun, replacing))))
    .returning({ id: syncRuns.id });
  return rows.length > 0;
}

/** Log lines kept per run: enough to answer "why has this member no access?" without storing 100,000 lines. */
export const SYNC_LOG_MAX_ENTRIES = 2_000;

/** The latest recorded runs, newest first; without webhooks unless asked (the dashboard's "last sync"). */
export async function recentSyncRuns(db: Db, limit = 20, withWebhooks = false, onlySyncs = false): Promise<SyncRunRow[]> {
  return db
    .select()
    .from(syncRuns)
    .where(onlySyncs ? inArray(syncRuns.trigger, ['manual', 'scheduled']) : withWebhooks ? undefined : ne(syncRuns.trigger, 'webhook'))
    .orderBy(desc(syncRuns.finishedAt), desc(syncRuns.id))
    .limit(limit);
}

/** Runs of the sync log by id (the runs that reverted others, for who did it). */
export async function findSyncRuns(db: Db, ids: readonly number[]): Promise<SyncRunRow[]> {
  if (!ids.length) return [];
  return db
    .select()
    .from(syncRuns)
    .where(inArray(syncRuns.id, [...ids]));
}

/** One run of the sync log, or null. */
export async function findSyncRun(db: Db, id: number): Promise<SyncRunRow | null> {
  const [row] = await db.select().from(syncRuns).where(eq(syncRuns.id, id));
  return row ?? null;
}

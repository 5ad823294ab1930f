import { endGrant, grantGivesAccess, nextPlatformGrant, type Grant } from '../../../contracts/grants';
import type { Db } from '../../db/client';
import type { Platform, PlatformSubscriptionRow, SyncLogEntry, UserRow } from '../../db/schema';
import { membersWithGrantFrom } from '../members/grants-repository';
import { findMembersByEmails, findMembersByIds, findMembersMatching } from '../members/members-repository';
import { applyPlanned, planChanges, type ChangeCause, type GrantChange, type PlannedMember } from '../members/entitlement-service';
import { linkedMemberIds, linksOfMembers } from './links-repository';
import { bestRecord, mapEntitlement, paidThroughOf } from './mapping';
import { PLATFORM_LABELS } from './clients';
import { allPlatformRecords, platformRecordEmails, recordsWhere, resolveOwners, SYNC_LOG_MAX_ENTRIES } from './platforms-repository';

/**
 * From the platforms' stored records to members' platform grants (docs/decisions/0023-member-grants-and-bulk-runs.md).
 * Each member's Patreon and Buy Me a Coffee grants follow the records that feed them (resolveOwners);
 * a platform takes its grant away only when it is the whole truth for the member (its complete
 * listing, a link removed, or its record now feeding another account), and then paid time is kept.
 * The admin grant is never touched. Accounts whose email is not verified get nothing (ADR 0013).
 */

export interface ReconcileScope {
  /** Members with these emails, and the members the platform records under these (payer) emails feed. */
  emails?: string[];
  /** These members. */
  userIds?: string[];
  /** Every member that has a platform record, a link or a platform grant. */
  allWithRecords?: boolean;
  /** Platforms whose full listing succeeded: their members absent from it lose that platform's grant. */
  completeListings?: Platform[];
  /** Platforms whose stored records are the whole truth for the members in scope (a link removed). */
  authoritative?: Platform[];
  /** Platforms whose listing failed in this run: no grant of theirs changes. */
  untouched?: Platform[];
  /**
   * With allWithRecords: every record as the run will store it, instead of the stored ones (a sync
   * plans from its listings before it stores them, so its preview writes nothing).
   */
  records?: PlatformSubscriptionRow[];
}

/** A member whose effective subscription a reconcile changed (a sync log line). */
export interface MemberChange {
  userId: string;
  memberEmail: string;
  /** The source of the grant that decides the member's access after the change. */
  platform: Grant['source'];
  /** The payer email of the record that decided it (the member's own email when none did). */
  payerEmail: string;
  from: string;
  to: string;
}

export interface ReconcileResult {
  changed: number;
  changes: MemberChange[];
  /** Every record the reconcile looked at, with the member it feeds (null: none). */
  owners: Map<PlatformSubscriptionRow, UserRow | null>;
  planned: PlannedMember[];
}

const PLATFORMS: readonly Platform[] = ['patreon', 'buymeacoffee'];

export const describeAccess = (g: Grant) => `${g.tier} ${g.status} (${g.source})`;

/** A bulk run's log lines: the members whose access it changed, each with a note (capped like every run's log). */
export function changeLogLines(planned: readonly PlannedMember[], noteFor: (p: PlannedMember) => string | null): SyncLogEntry[] {
  return planned
    .filter((p) => p.effectiveChanges)
    .slice(0, SYNC_LOG_MAX_ENTRIES)
    .map((p) => {
      const note = noteFor(p);
      return {
        kind: 'changed' as const,
        platform: p.after.source,
        email: p.member.email,
        userId: p.member.id,
        from: describeAccess(p.before),
        to: describeAccess(p.after),
        ...(note ? { note } : {}),
      };
    });
}

function recordKey(r: PlatformSubscriptionRow): string {
  return `${r.platform}\u0000${r.email}`;
}

/** The grant changes the stored records call for, and the records' owners. */
export async function planReconcile(
  db: Db,
  scope: ReconcileScope,
  now: Date = new Date(),
): Promise<{ changes: GrantChange[]; owners: Map<PlatformSubscriptionRow, UserRow | null>; recordsOf: Map<string, PlatformSubscriptionRow[]> }> {
  const given = scope.allWithRecords ? scope.records : undefined;
  const scoped = given ?? (scope.allWithRecords ? await allPlatformRecords(db) : await recordsWhere(db, 'email', scope.emails ?? []));
  const firstOwners = await resolveOwners(db, scoped);
  const grantHolders = (scope.completeListings ?? []).map((p) => membersWithGrantFrom(p));
  const targets: UserRow[] = await findMembersMatching(db, {
    ...(scope.allWithRecords ? { idIn: linkedMemberIds(), ...(given ? {} : { emailIn: platformRecordEmails() }) } : {}),
    ...(scope.completeListings?.length ? { sources: scope.completeListings, idsIn: grantHolders } : {}),
  });
  const emails = [...(scope.emails ?? []), ...(given ? [...new Set(given.map((r) => r.email))] : [])];
  targets.push(...(await findMembersByEmails(db, emails)), ...(await findMembersByIds(db, scope.userIds ?? [])));
  for (const u of firstOwners.values()) if (u) targets.push(u);
  const recordsOf = new Map<string, PlatformSubscriptionRow[]>();
  if (!targets.length) return { changes: [], owners: firstOwners, recordsOf };

  // The records of the targets that the first read missed: under their own email or a linked identity.
  let owners = firstOwners;
  if (!scope.allWithRecords) {
    const links = await linksOfMembers(db, [...new Set(targets.map((u) => u.id))]);
    const byEmail = await recordsWhere(db, 'email', [...targets.map((u) => u.email), ...links.filter((l) => l.kind === 'email').map((l) => l.key)]);
    const byUserId = await recordsWhere(
      db,
      'platformUserId',
      links.filter((l) => l.kind === 'user_id').map((l) => l.key),
    );
    const seenKeys = new Set<string>();
    const all = [...scoped, ...byEmail, ...byUserId].filter((r) => {
      if (seenKeys.has(recordKey(r))) return false;
      seenKeys.add(recordKey(r));
      return true;
    });
    owners = await resolveOwners(db, all);
  }
  // Platforms whose record under a member's email now feeds another account.
  const movedAway = new Map<string, Set<Platform>>();
  const targetEmails = new Map(targets.map((u) => [u.email, u.id]));
  for (const [r, owner] of owners) {
    if (owner) recordsOf.set(owner.id, [...(recordsOf.get(owner.id) ?? []), r]);
    const emailOwner = targetEmails.get(r.email);
    if (emailOwner && owner && owner.id !== emailOwner) movedAway.set(emailOwner, new Set([...(movedAway.get(emailOwner) ?? []), r.platform]));
  }

  const takenBy = new Set<Platform>([...(scope.completeListings ?? []), ...(scope.authoritative ?? [])]);
  const seen = new Set<string>();
  const changes: GrantChange[] = [];
  for (const u of targets) {
    if (seen.has(u.id)) continue;
    seen.add(u.id);
    // Money follows only a proven email: an unverified registration of a supporter's address gets
    // nothing; the stored record applies when the email is verified (ADR 0013).
    if (!u.emailVerifiedAt) continue;
    const records = recordsOf.get(u.id) ?? [];
    for (const platform of PLATFORMS) {
      if (scope.untouched?.includes(platform)) continue;
      const mine = records.filter((r) => r.platform === platform);
      const best = bestRecord(mine, now);
      if (best) {
        const fromPlatform = mapEntitlement(best, now);
        const paidThrough = paidThroughOf(best);
        changes.push({
          userId: u.id,
          source: platform,
          next: (current) => nextPlatformGrant(current, fromPlatform, now, paidThrough),
          reason: `${PLATFORM_LABELS[platform]}: ${best.platformStatus ?? 'listed'} (${best.email})`,
        });
        continue;
      }
      if (!takenBy.has(platform) && !movedAway.get(u.id)?.has(platform)) continue;
      changes.push({
        userId: u.id,
        source: platform,
        // Only a grant that still gives access ends; paid time is kept (endGrant).
        next: (current) => (current && grantGivesAccess(current, now) ? endGrant(current, now) : current),
        reason: `${PLATFORM_LABELS[platform]} no longer lists this supporter`,
      });
    }
  }
  return { changes, owners, recordsOf };
}

/** The changes as sync-log lines: members whose effective subscription changed. */
function memberChanges(planned: readonly PlannedMember[], recordsOf: Map<string, PlatformSubscriptionRow[]>): MemberChange[] {
  return planned
    .filter((p) => p.effectiveChanges)
    .map((p) => {
      const decidedBy = (recordsOf.get(p.member.id) ?? []).find((r) => r.platform === p.after.source || r.platform === p.before.source);
      return {
        userId: p.member.id,
        memberEmail: p.member.email,
        platform: p.after.source,
        payerEmail: decidedBy?.email ?? p.member.email,
        from: describeAccess(p.before),
        to: describeAccess(p.after),
      };
    });
}

/** Plans the reconcile without writing (a bulk run decides what to apply). */
export async function planReconcileMembers(db: Db, scope: ReconcileScope, now: Date = new Date()) {
  const { changes, owners, recordsOf } = await planReconcile(db, scope, now);
  const planned = await planChanges(db, changes, now);
  return { planned, owners, recordsOf };
}

/** The result of applying (part of) a planned reconcile. */
export function reconcileResult(
  applied: readonly PlannedMember[],
  owners: Map<PlatformSubscriptionRow, UserRow | null>,
  recordsOf: Map<string, PlatformSubscriptionRow[]>,
  planned: PlannedMember[],
): ReconcileResult {
  const changes = memberChanges(applied, recordsOf);
  return { changed: changes.length, changes, owners, planned };
}

/**
 * Applies the platforms' stored records to the members in scope at once (links, claims, webhooks,
 * verification), in the caller's transaction.
 */
export async function reconcileUsers(db: Db, scope: ReconcileScope, cause: ChangeCause, now: Date = new Date()): Promise<ReconcileResult> {
  const { planned, owners, recordsOf } = await planReconcileMembers(db, scope, now);
  await applyPlanned(db, planned, cause, now);
  return reconcileResult(planned, owners, recordsOf, planned);
}

import { fromGrantSnapshot, sameGrant, toAccessSnapshot, toGrantSnapshot, type Grant, type GrantSnapshot } from '../../../contracts/grants';
import { HELD_LIST_MAX, MEMBER_HISTORY_MAX, REVERT_MESSAGES, type HeldChanges, type MemberHistory, type RevertRunReply } from '../../../contracts/admin';
import type { SubscriptionSource } from '../../../contracts/tiers';
import type { Db } from '../../db/client';
import { runInBackground } from '../../db/lanes';
import { conflict, notFound } from '../../lib/errors';
import {
  changesOfMember,
  changesOfRun,
  latestChangeIds,
  listHeldChanges,
  countHeldMembers,
  recordNameChanges,
  takeHeldChanges,
} from '../members/grants-repository';
import {
  applyChunk,
  applyPlanned,
  decideBulk,
  DryRunRollback,
  planChanges,
  planInSteps,
  type BulkDecision,
  type GrantChange,
  type PlannedMember,
} from '../members/entitlement-service';
import { writeInChunks } from '../platforms/bulk-run-chunks';
import { runState } from '../platforms/sync-log-views';
import { findMemberById, findMembersByIds, renameMembersInBulk } from '../members/members-repository';
import type { MemberChangeRow, MemberNamesSnapshot } from '../../db/schema';
import { findSyncRun, finishSyncRun, markRunReverted, startSyncRun } from '../platforms/platforms-repository';
import { changeLogLines } from '../platforms/reconcile-service';

/**
 * Undoing bulk runs and deciding held losses (docs/decisions/0023-member-grants-and-bulk-runs.md).
 * A revert puts each member a run changed back to their grants before it, unless a later change
 * touched that member: those are listed and left alone, so no newer decision is overwritten.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type RevertOptions = { dryRun?: boolean; confirm?: boolean; planId?: string | undefined; adminId?: string | null };

export function revertRun(db: Db, runId: number, opts: RevertOptions): Promise<RevertRunReply> {
  // A bulk run is background work: listeners' statements go first (db/lanes.ts).
  return runInBackground(() => revertInBackground(db, runId, opts));
}

async function revertInBackground(db: Db, runId: number, opts: RevertOptions): Promise<RevertRunReply> {
  const now = new Date();
  const plan = await planRevert(db, runId, now);
  let decision: BulkDecision;
  try {
    decision = await decideBulk(db, plan.planned, { dryRun: opts.dryRun, confirm: opts.confirm, planId: opts.planId }, now);
  } catch (err) {
    if (!(err instanceof DryRunRollback)) throw err;
    return { runId: null, reverted: 0, skipped: await skippedMembers(db, plan.later), dryRun: true, plan: err.plan, renamed: plan.names.length };
  }
  return applyRevert(db, runId, plan, decision, opts.adminId ?? null, now);
}

/**
 * What a revert would do, read outside any transaction: each member the run changed goes back to
 * their grants before it (their first change in it), unless a later change touched them. A revert
 * that was interrupted is finished: the members it restored already are left as they are.
 */
async function planRevert(db: Db, runId: number, now: Date) {
  const run = await findSyncRun(db, runId);
  if (!run) throw notFound(REVERT_MESSAGES.runNotFound, 'run_not_found');
  if (runState(run, now) === 'applying') throw conflict(REVERT_MESSAGES.stillApplying, 'run_applying');
  const previous = run.revertedByRun ? await findSyncRun(db, run.revertedByRun) : null;
  const resuming = previous && runState(previous, now) === 'interrupted' ? previous.id : null;
  if (run.revertedAt && resuming === null) throw conflict(REVERT_MESSAGES.alreadyReverted, 'already_reverted');
  const changes = await changesOfRun(db, runId);
  if (!changes.length) throw conflict(REVERT_MESSAGES.nothingToRevert, 'nothing_to_revert');
  const restored = new Set(resuming === null ? [] : (await changesOfRun(db, resuming)).map((c) => c.userId));
  // Each member's state before the run (their first change in it) and their last change in it.
  const first = new Map<string, GrantSnapshot[]>();
  const last = new Map<string, { id: number; after: GrantSnapshot[] }>();
  for (const c of changes) {
    if (restored.has(c.userId)) continue;
    if (!first.has(c.userId)) first.set(c.userId, c.grantsBefore);
    last.set(c.userId, { id: c.id, after: c.grantsAfter });
  }
  const latest = await latestChangeIds(db, [...last.keys()]);
  const later = [...last.keys()].filter((id) => (latest.get(id) ?? 0) > (last.get(id)?.id ?? 0));
  const restore: GrantChange[] = [];
  for (const [userId, before] of first) {
    if (later.includes(userId)) continue;
    const sources = new Set<SubscriptionSource>([...before.map((g) => g.source), ...(last.get(userId)?.after ?? []).map((g) => g.source)]);
    for (const source of sources) {
      const was = before.find((g) => g.source === source);
      restore.push({ userId, source, next: was ? fromGrantSnapshot(was) : null, reason: `revert of run ${runId}` });
    }
  }
  const mine = changes.filter((c) => !restored.has(c.userId));
  const planned = await planInSteps(db, restore, now);
  const names = await namesToRestore(db, mine, later);
  return { planned, names, later, last, restore, changes: mine, resuming };
}

type RevertPlan = Awaited<ReturnType<typeof planRevert>>;

/**
 * Writes a decided revert as its own run: the reverted run is marked first (two reverts at once: one
 * wins), then BULK_CHUNK_MEMBERS members per short transaction, each chunk leaving out members
 * changed since the plan. An interrupted revert is finished by reverting the run again.
 */
async function applyRevert(db: Db, runId: number, plan: RevertPlan, decision: BulkDecision, adminId: string | null, now: Date): Promise<RevertRunReply> {
  const newRun = await db.transaction(async (tx) => {
    const id = await startSyncRun(tx, 'revert', now, adminId, 'applying');
    if (!(await markRunReverted(tx, runId, id, now, plan.resuming))) throw conflict(REVERT_MESSAGES.alreadyReverted, 'already_reverted');
    return id;
  });
  const cause = { cause: 'revert' as const, causeRef: String(runId), runId: newRun };
  const restoreOf = new Map<string, GrantChange[]>();
  for (const c of plan.restore) restoreOf.set(c.userId, [...(restoreOf.get(c.userId) ?? []), c]);
  const skipped = [...plan.later];
  const applied: PlannedMember[] = [];
  let renamed = 0;
  const reverted = await writeInChunks(db, newRun, decision.apply, async (tx, chunk) => {
    // A member changed since the plan (a webhook, an admin) is left as it is, like one changed before it.
    const latest = await latestChangeIds(
      tx,
      chunk.map((p) => p.member.id),
    );
    const still = chunk.filter((p) => (latest.get(p.member.id) ?? 0) <= (plan.last.get(p.member.id)?.id ?? 0));
    skipped.push(...chunk.filter((p) => !still.includes(p)).map((p) => p.member.id));
    const done = await applyChunk(
      tx,
      still,
      still.flatMap((p) => restoreOf.get(p.member.id) ?? []),
      cause,
      now,
    );
    applied.push(...done.applied);
    const ids = new Set(still.map((p) => p.member.id));
    const names = await namesToRestore(
      tx,
      plan.changes.filter((c) => ids.has(c.userId)),
      [],
    );
    renamed += names.length;
    await putNamesBack(tx, names, done.applied, runId, newRun, now);
    return done.updated;
  });
  await finishSyncRun(db, newRun, {
    state: 'done',
    ok: true,
    updated: reverted,
    details: changeLogLines(applied, () => `revert of run ${runId}`),
  });
  return { runId: newRun, reverted, skipped: await skippedMembers(db, skipped), dryRun: false, plan: decision.plan, renamed };
}

/** Puts back the names a run changed, with a history line each (under the revert's run). */
async function putNamesBack(
  tx: Db,
  names: Awaited<ReturnType<typeof namesToRestore>>,
  applied: readonly PlannedMember[],
  runId: number,
  newRun: number,
  now: Date,
): Promise<void> {
  await renameMembersInBulk(
    tx,
    names.map((n) => ({ id: n.userId, ...n.namesAfter })),
  );
  const plannedOf = new Map(applied.map((p) => [p.member.id, p]));
  await recordNameChanges(
    tx,
    newRun,
    names.map((n) => {
      const p = plannedOf.get(n.userId);
      const access = p ? toAccessSnapshot(p.after) : n.access;
      const grants = p ? p.grantsAfter.map(toGrantSnapshot) : n.grants;
      return { ...n, cause: 'revert', causeRef: String(runId), runId: newRun, before: access, after: access, grantsBefore: grants, grantsAfter: grants };
    }),
    now,
  );
}

/**
 * The names a run changed, to put back: each member's names before their first renaming line in the
 * run, unless a later change touched the member or their names are no longer the ones the run wrote.
 */
async function namesToRestore(db: Db, changes: readonly MemberChangeRow[], later: readonly string[]) {
  const byMember = new Map<string, { before: MemberNamesSnapshot; after: MemberNamesSnapshot; last: MemberChangeRow }>();
  for (const c of changes) {
    if (!c.namesBefore || !c.namesAfter || later.includes(c.userId)) continue;
    const seen = byMember.get(c.userId);
    byMember.set(c.userId, { before: seen?.before ?? c.namesBefore, after: c.namesAfter, last: c });
  }
  const members = await findMembersByIds(db, [...byMember.keys()]);
  return members.flatMap((m) => {
    const n = byMember.get(m.id);
    if (!n || m.firstName !== n.after.firstName || m.lastName !== n.after.lastName) return [];
    return [
      {
        userId: m.id,
        namesBefore: n.after,
        namesAfter: n.before,
        access: n.last.after,
        grants: n.last.grantsAfter,
        reason: `revert of run ${n.last.runId}: name put back`,
      },
    ];
  });
}

async function skippedMembers(db: Db, ids: string[]): Promise<RevertRunReply['skipped']> {
  const members = await findMembersByIds(db, ids);
  return members.map((m) => ({ userId: m.id, email: m.email, reason: 'changed again after this run: left as it is' }));
}

/** A member's history, newest first. */
export async function memberHistory(db: Db, userId: string): Promise<MemberHistory> {
  const member = UUID.test(userId) ? await findMemberById(db, userId) : null;
  if (!member) throw notFound('User not found', 'user_not_found');
  const rows = await changesOfMember(db, userId, MEMBER_HISTORY_MAX);
  return {
    items: rows.map((r) => ({
      id: r.id,
      at: r.at.toISOString(),
      cause: r.cause,
      causeRef: r.causeRef,
      runId: r.runId,
      from: r.before,
      to: r.after,
      reason: r.reason,
    })),
  };
}

// ---------------------------------------------------------------- held losses

export async function heldChanges(db: Db): Promise<HeldChanges> {
  const [rows, members] = await Promise.all([listHeldChanges(db, HELD_LIST_MAX), countHeldMembers(db)]);
  const byId = new Map(
    (
      await findMembersByIds(
        db,
        rows.map((r) => r.userId),
      )
    ).map((m) => [m.id, m]),
  );
  const none: Grant = { source: 'admin', tier: 'free', status: 'inactive', expiry: null, pledgeAmountCents: 0 };
  return {
    members,
    items: rows.map((r) => ({
      id: r.id,
      runId: r.runId,
      userId: r.userId,
      email: byId.get(r.userId)?.email ?? '',
      source: r.source,
      from: toAccessSnapshot(r.current ? fromGrantSnapshot(r.current) : { ...none, source: r.source }),
      to: toAccessSnapshot(r.next ? fromGrantSnapshot(r.next) : { ...none, source: r.source }),
      reason: r.reason,
      heldAt: r.createdAt.toISOString(),
    })),
  };
}

/**
 * Applies held losses (these ids, or all). A held change applies only while the member's grant is
 * still the one it was held against; otherwise it is dropped as stale.
 */
export async function confirmHeld(db: Db, ids: number[] | null, adminId: string | null): Promise<{ done: number; stale: number; runId: number | null }> {
  const now = new Date();
  return db.transaction(async (tx) => {
    const taken = await takeHeldChanges(tx, ids);
    if (!taken.length) return { done: 0, stale: 0, runId: null };
    let stale = 0;
    const changes: GrantChange[] = taken.map((h) => ({
      userId: h.userId,
      source: h.source,
      next: (current) => {
        const heldAgainst = h.current ? fromGrantSnapshot(h.current) : null;
        if (!sameGrant(current, heldAgainst)) {
          stale++;
          return current;
        }
        return h.next ? fromGrantSnapshot(h.next) : null;
      },
      reason: `held loss confirmed: ${h.reason}`,
    }));
    const planned = await planChanges(tx, changes, now);
    const runId = await startSyncRun(tx, 'confirm', now, adminId);
    const done = await applyPlanned(tx, planned, { cause: 'confirm', causeRef: adminId, runId }, now);
    await finishSyncRun(tx, runId, {
      ok: true,
      updated: done,
      details: changeLogLines(planned, () => 'held loss confirmed'),
    });
    return { done: taken.length - stale, stale, runId };
  });
}

/** Drops held losses (these ids, or all): the members keep what they have. */
export async function dismissHeld(db: Db, ids: number[] | null): Promise<{ done: number; stale: number; runId: null }> {
  const taken = await takeHeldChanges(db, ids);
  return { done: taken.length, stale: 0, runId: null };
}

import { createHash } from 'node:crypto';
import {
  bestGrant,
  NO_GRANT,
  classifyChange,
  isLoss,
  needsConfirmation,
  normaliseGrant,
  sameGrant,
  toAccessSnapshot,
  toGrantSnapshot,
  type ChangeKind,
  type Grant,
} from '../../../contracts/grants';
import {
  BULK_PLAN_SAMPLES,
  CONFIRMATION_REQUIRED,
  planChangedMessage,
  planLosses,
  type BulkPlan,
  type BulkPlanSample,
  type PlanDifference,
} from '../../../contracts/admin';
import { HOUR_MS } from '../../../contracts/time';
import { tierRank, type SubscriptionSource } from '../../../contracts/tiers';
import type { Db } from '../../db/client';
import type { MemberChangeCause, UserRow } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { turnTaker, yieldToListeners } from '../../lib/event-loop';
import { grantsOf, insertChanges, membersWithPassedGrants, writeGrants, type GrantWrite } from './grants-repository';
import { countMembersWithAccess, effectiveOf, findMembersByIds, membersPastExpiry, writeEffectiveSubscriptions } from './members-repository';

/**
 * Every change of what a member may use goes through here (docs/decisions/0023-member-grants-and-bulk-runs.md):
 * a change names a member, a source and the grant it gets; the plan says what each member's effective
 * subscription becomes; applying it writes the grants, the effective subscription on the member's row
 * and a history line, all in the caller's transaction, so access changes at once.
 */

export interface GrantChange {
  userId: string;
  source: SubscriptionSource;
  /** The new grant from this source, given the one held now (null = none); null removes it. */
  next: Grant | null | ((current: Grant | null) => Grant | null);
  reason: string;
}

export interface PlannedMember {
  member: UserRow;
  before: Grant;
  after: Grant;
  grantsBefore: Grant[];
  grantsAfter: Grant[];
  writes: GrantWrite[];
  kind: ChangeKind;
  reason: string;
  /** Whether the effective subscription changes (else only a grant behind it does, or nothing). */
  effectiveChanges: boolean;
  /** Whether any grant changes (writes may also only store grants read from the member's row). */
  grantsChange: boolean;
}

/**
 * The grants a member holds: the stored ones; a member with none stored whose row carries a paid
 * subscription (written before grants existed, or by a direct insert) holds it as a grant of its source.
 */
function heldGrants(member: UserRow, stored: Grant[] | undefined): { grants: Grant[]; synthesised: boolean } {
  if (stored?.length) return { grants: stored, synthesised: false };
  if (member.subscriptionTier === 'free' && member.subscriptionStatus === 'inactive') return { grants: [], synthesised: false };
  return { grants: [effectiveOf(member)], synthesised: true };
}

/** What `changes` would do to each member they name (members that do not exist are left out). */
export async function planChanges(
  db: Db,
  changes: readonly GrantChange[],
  now: Date = new Date(),
  recompute: readonly string[] = [],
  unsaved: readonly UserRow[] = [],
): Promise<PlannedMember[]> {
  const byMember = new Map<string, GrantChange[]>();
  for (const c of changes) byMember.set(c.userId, [...(byMember.get(c.userId) ?? []), c]);
  for (const id of recompute) if (!byMember.has(id)) byMember.set(id, []);
  // Members not stored yet (an import's preview plans the members it would create): no grants.
  const pending = unsaved.filter((m) => byMember.has(m.id));
  const pendingIds = new Set(pending.map((m) => m.id));
  const ids = [...byMember.keys()].filter((id) => !pendingIds.has(id));
  const [found, stored] = await Promise.all([findMembersByIds(db, ids), grantsOf(db, ids)]);
  const members = [...found, ...pending];
  const planned: PlannedMember[] = [];
  const takeTurn = turnTaker();
  for (const member of members) {
    await takeTurn();
    const { grants: before, synthesised } = heldGrants(member, stored.get(member.id));
    const current = new Map(before.map((g) => [g.source, g]));
    const reasons: string[] = [];
    for (const c of byMember.get(member.id) ?? []) {
      const held = current.get(c.source) ?? null;
      const next = typeof c.next === 'function' ? c.next(held) : c.next;
      if (next) current.set(c.source, normaliseGrant({ ...next, source: c.source }, now));
      else current.delete(c.source);
      if (!sameGrant(held, next ? (current.get(c.source) ?? null) : null)) reasons.push(c.reason);
    }
    // Paid time that ran out since the grant was written ends now (the expiry pass; any recompute).
    for (const [source, g] of current) current.set(source, normaliseGrant(g, now));
    const after = [...current.values()];
    const writes: GrantWrite[] = [];
    let grantsChange = false;
    const sources = new Set<SubscriptionSource>([...before.map((g) => g.source), ...after.map((g) => g.source)]);
    for (const source of sources) {
      const held = before.find((g) => g.source === source) ?? null;
      const next = current.get(source) ?? null;
      if (!sameGrant(held, next)) grantsChange = true;
      // Grants read from the member's row are stored too, so the next change starts from them.
      if (!sameGrant(synthesised ? null : held, next)) writes.push({ userId: member.id, source, grant: next });
    }
    const was = effectiveOf(member);
    const becomes = after.length ? bestGrant(after, now) : NO_GRANT;
    const effectiveChanges = !sameGrant(was, becomes);
    if (!grantsChange && !effectiveChanges) {
      planned.push({
        member,
        before: was,
        after: was,
        grantsBefore: before,
        grantsAfter: after,
        writes,
        kind: 'unchanged',
        reason: '',
        effectiveChanges,
        grantsChange,
      });
      continue;
    }
    planned.push({
      member,
      before: was,
      after: becomes,
      grantsBefore: before,
      grantsAfter: after,
      writes,
      kind: classifyChange(was, becomes, now),
      reason: reasons.join('; ') || (effectiveChanges ? 'paid time ran out' : ''),
      effectiveChanges,
      grantsChange,
    });
  }
  return planned;
}

export interface ChangeCause {
  cause: MemberChangeCause;
  causeRef?: string | null;
  runId?: number | null;
}

/** Writes planned changes (grants, effective subscriptions, history). Returns the members whose access changed. */
export async function applyPlanned(db: Db, planned: readonly PlannedMember[], cause: ChangeCause, now: Date = new Date()): Promise<number> {
  const writing = planned.filter((p) => p.writes.length || p.effectiveChanges);
  if (!writing.length) return 0;
  await writeGrants(
    db,
    writing.flatMap((p) => p.writes),
    now,
  );
  await writeEffectiveSubscriptions(
    db,
    writing.filter((p) => p.effectiveChanges).map((p) => ({ userId: p.member.id, grant: p.after })),
    now,
  );
  const changed = writing.filter((p) => p.grantsChange || p.effectiveChanges);
  await insertChanges(
    db,
    changed.map((p) => ({
      userId: p.member.id,
      cause: cause.cause,
      causeRef: cause.causeRef ?? null,
      runId: cause.runId ?? null,
      before: toAccessSnapshot(p.before),
      after: toAccessSnapshot(p.after),
      grantsBefore: p.grantsBefore.map(toGrantSnapshot),
      grantsAfter: p.grantsAfter.map(toGrantSnapshot),
      reason: p.reason || null,
    })),
    now,
  );
  return changed.filter((p) => p.effectiveChanges).length;
}

/**
 * One chunk of a bulk run, in its own short transaction: re-plans the approved members' changes
 * against what is stored now (a webhook may have changed a member since the plan; paid time is kept
 * by the changes themselves), leaves out a member whose change became a loss the guard did not
 * approve (the next run decides it), and applies the rest. Returns what it applied and how many
 * members' access changed.
 */
export async function applyChunk(
  tx: Db,
  approved: readonly PlannedMember[],
  changes: readonly GrantChange[],
  cause: ChangeCause,
  now: Date = new Date(),
): Promise<{ applied: PlannedMember[]; updated: number }> {
  const approvedOf = new Map(approved.map((p) => [p.member.id, p]));
  const replanned = await planChanges(
    tx,
    changes.filter((c) => approvedOf.has(c.userId)),
    now,
  );
  const applied = replanned.filter((p) => !isLoss(p.kind) || isLoss(approvedOf.get(p.member.id)?.kind ?? 'unchanged'));
  return { applied, updated: await applyPlanned(tx, applied, cause, now) };
}

/**
 * How many members a bulk run (sync, import, revert) writes per transaction. On PGlite every other
 * query waits while a transaction is open, so each stays short: a chunk of 20 took about a third of
 * the time of one of 50, for a 10,000-row import about a fifth longer as a whole (PGlite, measured
 * for docs/decisions/0034-background-work-off-the-request-path.md); the event loop gets a turn
 * between two (docs/decisions/0023-member-grants-and-bulk-runs.md).
 */
export const BULK_CHUNK_MEMBERS = 20;
/** Members a bulk run plans per step (reads only), giving listeners' requests a turn between two. */
const BULK_PLAN_MEMBERS = 10 * BULK_CHUNK_MEMBERS;

/** planChanges for a bulk run: the same plan, made BULK_PLAN_MEMBERS members at a time with the event loop free between two. */
export async function planInSteps(db: Db, changes: readonly GrantChange[], now: Date = new Date(), unsaved: readonly UserRow[] = []): Promise<PlannedMember[]> {
  const byMember = new Map<string, GrantChange[]>();
  for (const c of changes) byMember.set(c.userId, [...(byMember.get(c.userId) ?? []), c]);
  const ids = [...byMember.keys()];
  const planned: PlannedMember[] = [];
  for (let i = 0; i < ids.length; i += BULK_PLAN_MEMBERS) {
    await yieldToListeners();
    const step = ids.slice(i, i + BULK_PLAN_MEMBERS).flatMap((id) => byMember.get(id) ?? []);
    planned.push(...(await planChanges(db, step, now, [], unsaved)));
  }
  return planned;
}

/** Plans and applies changes at once (a link, a claim, an admin's edit): access changes in the caller's transaction. */
export async function changeGrants(db: Db, changes: readonly GrantChange[], cause: ChangeCause, now: Date = new Date()): Promise<PlannedMember[]> {
  const planned = await planChanges(db, changes, now);
  await applyPlanned(db, planned, cause, now);
  return planned;
}

/** The expiry pass: grants whose paid time has run out become expired and each member's subscription follows. */
export async function expirePassedGrants(db: Db, now: Date = new Date()): Promise<number> {
  const ids = [...new Set([...(await membersWithPassedGrants(db, now)), ...(await membersPastExpiry(db, now))])];
  if (!ids.length) return 0;
  const planned = await planChanges(db, [], now, ids);
  return applyPlanned(db, planned, { cause: 'expiry' }, now);
}

// ---------------------------------------------------------------- bulk runs: plan, guard, hold

/** Samples: losses first (access lost now before paid time kept), then downgrades, then the rest. */
const SAMPLE_ORDER: ChangeKind[] = ['loseAccess', 'stopPaying', 'tierDown', 'gainAccess', 'tierUp', 'detailsChanged'];

const grantKey = (g: Grant) => `${g.source}:${g.tier}:${g.status}:${g.expiry?.toISOString() ?? '-'}:${g.pledgeAmountCents}`;
/** One member's change as the plan's digest reads it: effective access before and after, and the grant writes. */
const changeKey = (p: PlannedMember) =>
  `${p.member.email}|${grantKey(p.before)}>${grantKey(p.after)}|${p.writes
    .map((w) => `${w.source}=${w.grant ? grantKey(w.grant) : 'none'}`)
    .sort()
    .join(',')}`;
/** A loss as the plan_changed check compares it: who, which kind of loss, and the access they end with. */
const lossKey = (p: PlannedMember) => `${p.member.email}|${p.kind}|${grantKey(p.after)}`;

/** The planId: a digest of the exact changes, in a stable order (members by email, which an import's new members keep between preview and run). */
export function planDigest(planned: readonly PlannedMember[]): string {
  return digestOf(planned.filter((p) => p.kind !== 'unchanged' || p.writes.length).map(changeKey));
}

function digestOf(keys: string[]): string {
  const hash = createHash('sha256');
  for (const key of keys.sort()) hash.update(key).update('\n');
  return hash.digest('hex').slice(0, 32);
}

/** planDigest for a bulk run: the same digest, its keys made with turns for listeners' requests (10,000 members take a tenth of a second). */
async function planDigestInSteps(planned: readonly PlannedMember[]): Promise<string> {
  const keys: string[] = [];
  const takeTurn = turnTaker();
  for (const p of planned) {
    await takeTurn();
    if (p.kind !== 'unchanged' || p.writes.length) keys.push(changeKey(p));
  }
  const hash = createHash('sha256');
  for (const key of keys.sort()) {
    await takeTurn();
    hash.update(key).update('\n');
  }
  return hash.digest('hex').slice(0, 32);
}

/**
 * The losses of the plans this instance previewed lately, by planId, so that a run whose plan changed
 * can say which members it would now take more from. A planId not found here (another instance, a
 * restart) is compared by its digest alone: any change refuses.
 */
const previewed = new Map<string, { at: number; losses: Set<string> }>();
// Few: a plan of 100,000 members keeps a key per loss.
const PREVIEWS_KEPT = 8;
const PREVIEW_KEPT_MS = 6 * HOUR_MS;
function rememberPlan(planId: string, planned: readonly PlannedMember[], now: Date): void {
  previewed.delete(planId);
  previewed.set(planId, { at: now.getTime(), losses: new Set(planned.filter((p) => isLoss(p.kind)).map(lossKey)) });
  for (const [id, entry] of previewed) if (previewed.size > PREVIEWS_KEPT || entry.at < now.getTime() - PREVIEW_KEPT_MS) previewed.delete(id);
}

/** Members whose access is taken, most serious first: access lost now, then the highest tier they had. */
function bySeriousness(a: PlannedMember, b: PlannedMember): number {
  return (
    SAMPLE_ORDER.indexOf(a.kind) - SAMPLE_ORDER.indexOf(b.kind) ||
    tierRank(b.before.tier) - tierRank(a.before.tier) ||
    (a.member.email < b.member.email ? -1 : a.member.email > b.member.email ? 1 : 0)
  );
}

/**
 * The losses a run would now make that the plan `planId` names did not: null when there are none
 * (the plan is the one previewed, or only changed in what it gives).
 */
export function planDifference(planId: string, planned: readonly PlannedMember[], currentPlanId = planDigest(planned)): PlanDifference | null {
  const known = previewed.get(planId);
  if (!known && planId === currentPlanId) return null;
  const added = planned.filter((p) => isLoss(p.kind) && !known?.losses.has(lossKey(p))).sort(bySeriousness);
  if (known && !added.length) return null;
  const part = (kind: ChangeKind) => {
    const of = added.filter((p) => p.kind === kind);
    return { count: of.length, emails: of.slice(0, BULK_PLAN_SAMPLES).map((p) => p.member.email) };
  };
  const d = { known: Boolean(known), loseAccess: part('loseAccess'), stopPaying: part('stopPaying') };
  return { ...d, words: planChangedMessage(d) };
}

/**
 * Up to BULK_PLAN_SAMPLES members of each kind of change, most serious first (bySeriousness). Each
 * kind keeps its best so far: one comparison for most members, instead of sorting a 10,000-member
 * plan on the event loop.
 */
function mostSerious(planned: readonly PlannedMember[]): PlannedMember[] {
  const best = new Map<ChangeKind, PlannedMember[]>();
  for (const p of planned) {
    if (p.kind === 'unchanged') continue;
    let kept = best.get(p.kind);
    if (!kept) best.set(p.kind, (kept = []));
    if (kept.length === BULK_PLAN_SAMPLES && bySeriousness(p, kept[kept.length - 1] as PlannedMember) >= 0) continue;
    let at = kept.length;
    while (at > 0 && bySeriousness(p, kept[at - 1] as PlannedMember) < 0) at -= 1;
    kept.splice(at, 0, p);
    if (kept.length > BULK_PLAN_SAMPLES) kept.pop();
  }
  return SAMPLE_ORDER.flatMap((kind) => best.get(kind) ?? []);
}

/** The plan an admin sees before a bulk run: counts per kind of change and up to 50 sample members of each kind. */
export function summarisePlan(
  planned: readonly PlannedMember[],
  payingMembers: number,
  created = 0,
  createdIds: ReadonlySet<string> = new Set(),
  planId = planDigest(planned),
): BulkPlan {
  const counts = { gainAccess: 0, loseAccess: 0, stopPaying: 0, tierUp: 0, tierDown: 0, detailsChanged: 0, unchanged: 0, created };
  for (const p of planned) counts[p.kind]++;
  const samples: BulkPlanSample[] = [];
  for (const p of mostSerious(planned)) {
    samples.push({
      email: p.member.email,
      kind: p.kind,
      created: createdIds.has(p.member.id),
      from: toAccessSnapshot(p.before),
      to: toAccessSnapshot(p.after),
      reason: p.reason,
    });
  }
  return {
    planId,
    counts,
    payingMembers,
    needsConfirmation: needsConfirmation(counts.loseAccess + counts.stopPaying, payingMembers),
    samples,
  };
}

/** Thrown by decideBulk for a dry run: the run stops before writing anything and answers the plan. */
export class DryRunRollback extends Error {
  constructor(readonly plan: BulkPlan) {
    super('dry run');
  }
}

export function confirmationRequired(plan: BulkPlan): AppError {
  return new AppError(409, 'confirmation_required', CONFIRMATION_REQUIRED(planLosses(plan)), {}, { plan });
}

export function planChanged(plan: BulkPlan, difference: PlanDifference): AppError {
  return new AppError(409, 'plan_changed', difference.words, {}, { plan, difference });
}

export interface BulkDecision {
  plan: BulkPlan;
  /** What to apply now. */
  apply: PlannedMember[];
  /** Losses kept back for an admin (the scheduled sync never confirms; a listing that dropped many supporters). */
  held: PlannedMember[];
}

export interface BulkOptions {
  dryRun?: boolean | undefined;
  /** The admin saw the preview and accepts its losses: counts only with the preview's `planId`. */
  confirm?: boolean | undefined;
  /** The plan the admin saw: a run whose plan now takes more (access or paid time) is refused, 409 plan_changed. */
  planId?: string | undefined;
  /** A run nobody watches: instead of refusing, it holds the losses that need confirmation. */
  holdLosses?: boolean | undefined;
  /** Losses that write a grant of these sources are held whatever else is decided (a suspect listing). */
  holdSources?: readonly SubscriptionSource[] | undefined;
  created?: number | undefined;
  createdIds?: ReadonlySet<string> | undefined;
}

/**
 * The guard of every bulk run: a dry run answers the plan (with its planId) and changes nothing; a
 * run carrying a planId whose plan now takes more than the previewed one is refused (409
 * plan_changed, with the difference in words); a run that would end the subscriptions of many
 * members needs `confirm` with the planId, without which it is refused (409 with the plan) or, for
 * a run nobody watches (`holdLosses`), applied without its losses, which are held for review.
 */
export async function decideBulk(db: Db, planned: PlannedMember[], opts: BulkOptions, now: Date = new Date()): Promise<BulkDecision> {
  const paying = await countMembersWithAccess(db, now);
  const plan = summarisePlan(planned, paying, opts.created ?? 0, opts.createdIds, await planDigestInSteps(planned));
  if (opts.dryRun) {
    rememberPlan(plan.planId, planned, now);
    throw new DryRunRollback(plan);
  }
  if (opts.planId) {
    const difference = planDifference(opts.planId, planned, plan.planId);
    if (difference) throw planChanged(plan, difference);
  }
  const suspect = (p: PlannedMember) => isLoss(p.kind) && p.writes.some((w) => opts.holdSources?.includes(w.source));
  const confirmed = opts.confirm === true && opts.planId !== undefined;
  if (!plan.needsConfirmation || confirmed) return { plan, apply: planned.filter((p) => !suspect(p)), held: planned.filter(suspect) };
  if (!opts.holdLosses) {
    // The refusal answers the plan: confirming with its planId goes ahead while the plan stays the same.
    rememberPlan(plan.planId, planned, now);
    throw confirmationRequired(plan);
  }
  return { plan, apply: planned.filter((p) => !isLoss(p.kind)), held: planned.filter((p) => isLoss(p.kind)) };
}

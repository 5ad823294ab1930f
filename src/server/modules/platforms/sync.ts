import {
  LISTING_DROP_HOLD,
  listingDropped,
  LOSS_WORDS,
  NO_PLATFORM_CONFIGURED,
  SYNC_RUNNING,
  type SyncPlatformOutcome,
  type SyncResult,
} from '../../../contracts/admin';
import { RADIO_LOCALE, RADIO_TIME_ZONE } from '../../../contracts/time';
import { CONFIRM_MIN_MEMBERS, isLoss, toGrantSnapshot } from '../../../contracts/grants';
import type { Config } from '../../config';
import type { Database, Db } from '../../db/client';
import type { Platform, PlatformSubscriptionRow, SyncLogEntry } from '../../db/schema';
import { conflict } from '../../lib/errors';
import { fetchBmcSubscriptions, fetchPatreonMembers, PLATFORM_LABELS, type PlatformRecordInput } from './clients';
import { dublinDate, startOfDayDublin } from '../../lib/dates';
import type { FetchOptions } from './http';
import { clearHeldChanges, holdChanges, type HeldRecord } from '../members/grants-repository';
import { applyChunk, decideBulk, DryRunRollback, expirePassedGrants, planInSteps, type PlannedMember } from '../members/entitlement-service';
import { asStoredRecord, dedupeRecords, listedGivesAccess, recordGivesAccess } from './platform-records';
import { BULK_CHUNK_MEMBERS, inChunks, writeInChunks } from './bulk-run-chunks';
import { yieldToListeners } from '../../lib/event-loop';
import { runInBackground } from '../../db/lanes';
import {
  allPlatformRecords,
  deleteUnlisted,
  finishSyncRun,
  recentSyncRuns,
  startSyncRun,
  SYNC_LOG_MAX_ENTRIES,
  upsertPlatformRecords,
} from './platforms-repository';
import { planReconcile, reconcileResult, type ReconcileResult } from './reconcile-service';

export type SyncTrigger = 'manual' | 'scheduled';

/** Platform records stored per transaction (a row is cheaper to write than a member's change). */
const BULK_CHUNK_RECORDS = 2 * BULK_CHUNK_MEMBERS;

export function platformConfigured(config: Config, platform: Platform): boolean {
  return platform === 'patreon' ? Boolean(config.PATREON_ACCESS_TOKEN && config.PATREON_CAMPAIGN_ID) : Boolean(config.BMC_ACCESS_TOKEN);
}

export interface SyncDeps {
  database: Database;
  config: Config;
}

export interface SyncRunResult extends SyncResult {
  /** True when another instance held the lock, or no platform is configured, and this scheduled run did nothing. */
  skipped: boolean;
}

async function fetchPlatform(
  deps: SyncDeps,
  platform: Platform,
  opts: FetchOptions,
): Promise<{ outcome: SyncPlatformOutcome; records: PlatformRecordInput[] }> {
  const { config } = deps;
  if (!platformConfigured(config, platform)) {
    return { outcome: { platform, attempted: false, ok: false, fetched: 0, error: null }, records: [] };
  }
  try {
    const records =
      platform === 'patreon'
        ? await fetchPatreonMembers(
            { apiUrl: config.PATREON_API_URL, accessToken: config.PATREON_ACCESS_TOKEN ?? '', campaignId: config.PATREON_CAMPAIGN_ID ?? '' },
            opts,
          )
        : await fetchBmcSubscriptions({ apiUrl: config.BMC_API_URL, accessToken: config.BMC_ACCESS_TOKEN ?? '' }, opts);
    return { outcome: { platform, attempted: true, ok: true, fetched: records.length, error: null }, records };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return { outcome: { platform, attempted: true, ok: false, fetched: 0, error: message }, records: [] };
  }
}

/** A run's log: per platform matched / unmatched / changed, and the lines (changes first, then unmatched payers). */
export function syncLog(r: ReconcileResult, now: Date, platforms: readonly Platform[] = ['patreon', 'buymeacoffee']) {
  const figures = Object.fromEntries(platforms.map((p) => [p, { matched: 0, unmatched: 0, changed: 0 }])) as Record<
    Platform,
    { matched: number; unmatched: number; changed: number }
  >;
  const unmatched: SyncLogEntry[] = [];
  for (const [record, owner] of r.owners) {
    // A webhook's reconcile also reads the member's records on the other platform: not this run's.
    const f = figures[record.platform] as (typeof figures)[Platform] | undefined;
    if (!f) continue;
    if (owner) f.matched++;
    else if (recordGivesAccess(record, now)) {
      f.unmatched++;
      unmatched.push({ kind: 'unmatched', platform: record.platform, email: record.email, userId: null });
    }
  }
  // The two losses, named on their lines: access lost now, or paid time kept to a date.
  const kinds = new Map(r.planned.map((p) => [p.member.id, p]));
  const changes: SyncLogEntry[] = r.changes.map((c) => {
    const f = c.platform === 'admin' ? undefined : (figures[c.platform] as (typeof figures)[Platform] | undefined);
    if (f) f.changed++;
    const p = kinds.get(c.userId);
    const note =
      p?.kind === 'loseAccess' ? LOSS_WORDS.loseAccess : p?.kind === 'stopPaying' && p.after.expiry ? LOSS_WORDS.stopPaying(dublinDate(p.after.expiry)) : null;
    return {
      kind: 'changed',
      platform: c.platform,
      email: c.payerEmail,
      userId: c.userId,
      memberEmail: c.memberEmail === c.payerEmail ? null : c.memberEmail,
      from: c.from,
      to: c.to,
      ...(note ? { note } : {}),
    };
  });
  return { figures, details: [...changes, ...unmatched].slice(0, SYNC_LOG_MAX_ENTRIES) };
}

export interface SyncRequest {
  /** Change nothing; answer the plan. */
  dryRun?: boolean;
  /** Go ahead although the run ends the subscriptions of many members (counts only with `planId`). */
  confirm?: boolean;
  /** The plan the admin previewed: the run applies nothing if its plan now takes more (409 plan_changed). */
  planId?: string;
  /** The admin who asked (manual runs). */
  startedBy?: string | null;
}

type Fetched = Awaited<ReturnType<typeof fetchPlatform>>;

/** "earlier today", "yesterday" or "on 3 January": when a run listed what it listed. */
function dayWord(at: Date, now: Date): string {
  const today = startOfDayDublin(now);
  if (at.getTime() >= today.getTime()) return 'earlier today';
  if (at.getTime() >= startOfDayDublin(new Date(today.getTime() - 1)).getTime()) return 'yesterday';
  return `on ${at.toLocaleDateString(RADIO_LOCALE, { day: 'numeric', month: 'long', year: 'numeric', timeZone: RADIO_TIME_ZONE })}`;
}

/** Each platform's active supporters in its last listing that counted (a complete one, not held), and when. */
async function lastListings(db: Db): Promise<Map<Platform, { active: number; at: Date }>> {
  const out = new Map<Platform, { active: number; at: Date }>();
  for (const run of await recentSyncRuns(db, 50, false, true)) {
    for (const o of run.platforms) {
      if (out.has(o.platform) || !o.ok || o.held || typeof o.active !== 'number') continue;
      out.set(o.platform, { active: o.active, at: run.finishedAt });
    }
  }
  return out;
}

/**
 * Plans a sync from its listings, before storing them and outside any transaction (reads only):
 * which listings are complete, every member's platform grants as the complete listings would make
 * them, and the guard's decision (preview, planId, confirmation, held losses; decideBulk throws
 * DryRunRollback for a dry run, which has then written nothing). A platform whose listing failed is
 * not touched: none of its members' grants is ended, downgraded or shortened. A listing that dropped
 * more than LISTING_DROP_HOLD (and more than CONFIRM_MIN_MEMBERS) of its active supporters since its
 * last one has its losses held for review, even when confirmed.
 */
async function planSync(db: Db, fetched: Fetched[], trigger: SyncTrigger, request: SyncRequest, now: Date) {
  const outcomes = fetched.map((f) => f.outcome);
  const complete: Platform[] = [];
  const suspect: Platform[] = [];
  const previous = await lastListings(db);
  const listed: PlatformSubscriptionRow[] = [];
  for (const { outcome, records } of fetched) {
    if (!outcome.ok) continue;
    outcome.active = records.filter((r) => listedGivesAccess(r, now)).length;
    const before = previous.get(outcome.platform);
    const dropped = before ? before.active - outcome.active : 0;
    // Like the confirmation guard, a handful of members is not a drop (CONFIRM_MIN_MEMBERS).
    if (before && dropped > CONFIRM_MIN_MEMBERS && dropped > before.active * LISTING_DROP_HOLD) {
      outcome.held = listingDropped(PLATFORM_LABELS[outcome.platform], outcome.active, before.active, dayWord(before.at, now));
      suspect.push(outcome.platform);
    }
    listed.push(...dedupeRecords(records, now).map((r) => asStoredRecord(r, 'sync', now)));
    complete.push(outcome.platform);
  }
  // The records as they will be stored: the complete listings replace their platform's records.
  const records = [...(await allPlatformRecords(db)).filter((r) => !complete.includes(r.platform)), ...listed];
  const failed = outcomes.filter((o) => o.attempted && !o.ok).map((o) => o.platform);
  const scope = { allWithRecords: true, completeListings: complete, untouched: failed, records };
  const { changes, owners, recordsOf } = await planReconcile(db, scope, now);
  const planned = await planInSteps(db, changes, now);
  // A dropped listing that takes nothing from anyone (its losses were confirmed or dismissed) holds
  // nothing and becomes the listing later runs compare with.
  const holding = suspect.filter((platform) => planned.some((p) => isLoss(p.kind) && p.writes.some((w) => w.source === platform)));
  for (const o of outcomes) if (o.held && !holding.includes(o.platform)) delete o.held;
  const decision = await decideBulk(
    db,
    planned,
    { dryRun: request.dryRun, confirm: request.confirm, planId: request.planId, holdLosses: trigger === 'scheduled', holdSources: holding },
    now,
  );
  return { outcomes, complete, owners, recordsOf, changes, decision };
}

type SyncPlan = Awaited<ReturnType<typeof planSync>>;

/**
 * Applies a decided sync in short transactions (docs/decisions/0023-member-grants-and-bulk-runs.md):
 * stores the complete listings, opens the run 'applying' with its held losses, writes the members
 * BULK_CHUNK_MEMBERS at a time (each chunk re-plans its members against what is stored now), runs
 * the expiry pass and completes the run with its log. A run that stops part-way stays recorded as
 * interrupted with what it applied; the next sync applies the rest.
 */
async function applySync(db: Db, fetched: Fetched[], plan: SyncPlan, trigger: SyncTrigger, startedAt: Date, request: SyncRequest, now: Date) {
  const { outcomes, complete, decision } = plan;
  for (const { outcome, records } of fetched) {
    if (!complete.includes(outcome.platform)) continue;
    for (const part of inChunks(dedupeRecords(records, now), BULK_CHUNK_RECORDS)) {
      await yieldToListeners();
      await db.transaction((tx) => upsertPlatformRecords(tx, part, 'sync', now));
    }
    await db.transaction((tx) => deleteUnlisted(tx, outcome.platform, new Set(records.map((r) => r.email))));
  }
  const runId = await db.transaction(async (tx) => {
    const id = await startSyncRun(tx, trigger, startedAt, request.startedBy ?? null, 'applying');
    // Held losses are re-decided by every run over the same platforms: one listed again is no longer held.
    await clearHeldChanges(tx, complete);
    await holdChanges(tx, heldRecords(decision.held, id));
    return id;
  });
  const changesOf = groupBy(plan.changes, (c) => c.userId);
  const applied: PlannedMember[] = [];
  await writeInChunks(db, runId, decision.apply, async (tx, chunk) => {
    const done = await applyChunk(
      tx,
      chunk,
      chunk.flatMap((p) => changesOf.get(p.member.id) ?? []),
      { cause: 'sync', runId },
      now,
    );
    applied.push(...done.applied);
    return done.updated;
  });
  const reconciled = reconcileResult(applied, plan.owners, plan.recordsOf, applied);
  const updated = reconciled.changed + (await db.transaction((tx) => expirePassedGrants(tx, now)));
  const errors = outcomes.filter((o) => o.error).map((o) => o.error as string);
  const log = syncLog(reconciled, now);
  await finishSyncRun(db, runId, {
    state: 'done',
    ok: errors.length === 0,
    updated,
    platforms: outcomes.map((o) => (o.attempted ? { ...o, ...log.figures[o.platform] } : o)),
    errors,
    details: log.details,
  });
  return { updated, errors, platforms: outcomes, skipped: false, plan: decision.plan, runId, held: decision.held.length, ...lossSplit(applied) };
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

/** The final notice's split: members who lost access now, and who stopped paying but keep access to a date. */
function lossSplit(applied: readonly PlannedMember[]) {
  return {
    lostAccess: applied.filter((p) => p.kind === 'loseAccess').length,
    stoppedPaying: applied.filter((p) => p.kind === 'stopPaying').length,
  };
}

/** The grant changes of held members, one per source, with the grant they replace. */
function heldRecords(held: readonly PlannedMember[], runId: number): HeldRecord[] {
  return held.flatMap((p) =>
    p.writes.map((w) => {
      const current = p.grantsBefore.find((g) => g.source === w.source) ?? null;
      return {
        runId,
        userId: p.member.id,
        source: w.source,
        current: current ? toGrantSnapshot(current) : null,
        next: w.grant ? toGrantSnapshot(w.grant) : null,
        reason: p.reason,
      };
    }),
  );
}

/**
 * Runs one sync. Never two at once: within this process a second call joins the running one; across
 * instances on PostgreSQL a session-level advisory try-lock is held for the whole run (a manual sync
 * that finds it taken gets 409, a scheduled one is skipped). The platforms are asked first, outside
 * any transaction (no connection or row is held while they answer, however slowly); then the run is
 * planned outside any transaction (planSync) and applied in short ones (applySync).
 */
export function createSyncRunner(deps: SyncDeps, opts: FetchOptions = {}) {
  let running: Promise<SyncRunResult> | null = null;

  async function run(trigger: SyncTrigger, signal?: AbortSignal, requestIn?: SyncRequest): Promise<SyncRunResult> {
    const startedAt = new Date();
    const fetchOpts: FetchOptions = { ...opts, ...(signal ? { signal } : {}) };
    const request: SyncRequest = requestIn ?? {};
    const held = await deps.database.withTryLock('subscriptionSync', () => fetchAndApply(trigger, fetchOpts, startedAt, request));
    if (held.locked) return held.value;
    if (trigger === 'manual') throw conflict(SYNC_RUNNING, 'sync_running');
    return { updated: 0, errors: [], platforms: [], skipped: true };
  }

  async function fetchAndApply(trigger: SyncTrigger, fetchOpts: FetchOptions, startedAt: Date, request: SyncRequest): Promise<SyncRunResult> {
    const fetched = await Promise.all((['patreon', 'buymeacoffee'] as const).map((p) => fetchPlatform(deps, p, fetchOpts)));
    const outcomes = fetched.map((f) => f.outcome);
    if (!outcomes.some((o) => o.attempted)) {
      if (trigger === 'manual') throw conflict(NO_PLATFORM_CONFIGURED, 'no_platform_configured');
      return { updated: 0, errors: [], platforms: outcomes, skipped: true };
    }
    const errors = outcomes.filter((o) => o.error).map((o) => o.error as string);
    const db = deps.database.db;
    const now = new Date();
    try {
      const plan = await planSync(db, fetched, trigger, request, now);
      return await applySync(db, fetched, plan, trigger, startedAt, request, now);
    } catch (err) {
      if (err instanceof DryRunRollback) return { updated: 0, errors, platforms: outcomes, skipped: false, dryRun: true, plan: err.plan, runId: null };
      throw err;
    }
  }

  return {
    /** Runs a sync, or joins the one already running in this process. */
    sync(trigger: SyncTrigger, signal?: AbortSignal, request?: SyncRequest): Promise<SyncRunResult> {
      // A preview or a confirmed run is its own run: it never joins one with other intentions.
      if (running && !request?.dryRun && !request?.confirm && !request?.planId) return running;
      if (running) throw conflict(SYNC_RUNNING, 'sync_running');
      // The sync is background work, whoever starts it: listeners' statements go first (db/lanes.ts).
      const p = runInBackground(() => run(trigger, signal, request)).finally(() => {
        running = null;
      });
      running = p;
      return p;
    },
    /** The sync in progress, if any (close waits for it). */
    get current(): Promise<SyncRunResult> | null {
      return running;
    },
  };
}

import { NO_PLATFORM_CONFIGURED, type SyncPlatformOutcome, type SyncResult } from '../../../contracts/admin';
import { toGrantSnapshot } from '../../../contracts/grants';
import type { Config } from '../../config';
import { tryXactLock } from '../../db/advisory-locks';
import type { Database, Db } from '../../db/client';
import type { Platform, SyncLogEntry } from '../../db/schema';
import { conflict } from '../../lib/errors';
import { fetchBmcSubscriptions, fetchPatreonMembers, type PlatformRecordInput } from './clients';
import type { FetchOptions } from './http';
import { clearHeldChanges, holdChanges, type HeldRecord } from '../members/grants-repository';
import { applyPlanned, decideBulk, DryRunRollback, expirePassedGrants, type PlannedMember } from '../members/entitlement-service';
import { recordGivesAccess } from './platform-records';
import { deleteUnlisted, finishSyncRun, startSyncRun, SYNC_LOG_MAX_ENTRIES, upsertPlatformRecords } from './platforms-repository';
import { planReconcileMembers, reconcileResult, type ReconcileResult } from './reconcile-service';

export type SyncTrigger = 'manual' | 'scheduled';

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
  const changes: SyncLogEntry[] = r.changes.map((c) => {
    const f = c.platform === 'admin' ? undefined : (figures[c.platform] as (typeof figures)[Platform] | undefined);
    if (f) f.changed++;
    return {
      kind: 'changed',
      platform: c.platform,
      email: c.payerEmail,
      userId: c.userId,
      memberEmail: c.memberEmail === c.payerEmail ? null : c.memberEmail,
      from: c.from,
      to: c.to,
    };
  });
  return { figures, details: [...changes, ...unmatched].slice(0, SYNC_LOG_MAX_ENTRIES) };
}

export interface SyncRequest {
  /** Change nothing; answer the plan. */
  dryRun?: boolean;
  /** Go ahead although the run ends the subscriptions of many members. */
  confirm?: boolean;
  /** The admin who asked (manual runs). */
  startedBy?: string | null;
}

/**
 * Fetch both platforms, store their records, plan every member's platform grants, guard the plan
 * (preview, confirmation, held losses), apply it, run the expiry pass and record the run with its
 * changes. Everything after the fetch happens in `db`, a transaction: a dry run or a refusal
 * rolls it all back.
 */
async function syncWith(db: Db, deps: SyncDeps, trigger: SyncTrigger, opts: FetchOptions, startedAt: Date, request: SyncRequest): Promise<SyncRunResult> {
  const fetched = await Promise.all((['patreon', 'buymeacoffee'] as const).map((p) => fetchPlatform(deps, p, opts)));
  const outcomes = fetched.map((f) => f.outcome);
  if (!outcomes.some((o) => o.attempted)) {
    if (trigger === 'manual') throw conflict(NO_PLATFORM_CONFIGURED, 'no_platform_configured');
    return { updated: 0, errors: [], platforms: outcomes, skipped: true };
  }
  const now = new Date();
  const complete: Platform[] = [];
  for (const { outcome, records } of fetched) {
    if (!outcome.ok) continue;
    await upsertPlatformRecords(db, records, 'sync', now);
    await deleteUnlisted(db, outcome.platform, new Set(records.map((r) => r.email)));
    complete.push(outcome.platform);
  }
  const { planned, owners, recordsOf } = await planReconcileMembers(db, { allWithRecords: true, completeListings: complete }, now);
  const decision = await decideBulk(db, planned, { dryRun: request.dryRun, confirm: request.confirm, holdLosses: trigger === 'scheduled' }, now);
  const runId = await startSyncRun(db, trigger, startedAt, request.startedBy ?? null);
  await applyPlanned(db, decision.apply, { cause: 'sync', runId }, now);
  // Held losses are re-decided by every run over the same platforms: one listed again is no longer held.
  await clearHeldChanges(db, complete);
  await holdChanges(db, heldRecords(decision.held, runId));
  const reconciled = reconcileResult(decision.apply, owners, recordsOf, planned);
  const updated = reconciled.changed + (await expirePassedGrants(db, now));
  const errors = outcomes.filter((o) => o.error).map((o) => o.error as string);
  const log = syncLog(reconciled, now);
  await finishSyncRun(db, runId, {
    ok: errors.length === 0,
    updated,
    platforms: outcomes.map((o) => (o.attempted ? { ...o, ...log.figures[o.platform] } : o)),
    errors,
    details: log.details,
  });
  return { updated, errors, platforms: outcomes, skipped: false, plan: decision.plan, runId, held: decision.held.length };
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
 * instances on PostgreSQL a transaction-scoped advisory lock is held for the whole run (a manual sync
 * that finds it taken gets 409, a scheduled one is skipped). On PGlite (one process owns the
 * database) the platform calls happen outside the transaction so other requests are not held up.
 */
export function createSyncRunner(deps: SyncDeps, opts: FetchOptions = {}) {
  let running: Promise<SyncRunResult> | null = null;

  async function run(trigger: SyncTrigger, signal?: AbortSignal, requestIn?: SyncRequest): Promise<SyncRunResult> {
    const startedAt = new Date();
    const fetchOpts: FetchOptions = { ...opts, ...(signal ? { signal } : {}) };
    const request: SyncRequest = requestIn ?? {};
    try {
      return await runLocked(trigger, fetchOpts, startedAt, request);
    } catch (err) {
      if (err instanceof DryRunRollback) return { updated: 0, errors: [], platforms: [], skipped: false, dryRun: true, plan: err.plan, runId: null };
      throw err;
    }
  }

  async function runLocked(trigger: SyncTrigger, fetchOpts: FetchOptions, startedAt: Date, request: SyncRequest): Promise<SyncRunResult> {
    const { database } = deps;
    if (database.kind === 'postgres') {
      return database.db.transaction(async (tx) => {
        // node-postgres result: { rows }.
        const res = (await tx.execute(tryXactLock('subscriptionSync'))) as unknown as {
          rows: { locked: boolean }[];
        };
        const locked = Boolean(res.rows[0]?.locked);
        if (!locked) {
          if (trigger === 'manual') throw conflict('A sync is already running; try again in a minute', 'sync_running');
          return { updated: 0, errors: [], platforms: [], skipped: true };
        }
        return syncWith(tx, deps, trigger, fetchOpts, startedAt, request);
      });
    }
    // PGlite: the platform calls happen before the transaction opens (syncWith fetches first, and
    // PGlite's transaction holds every other query), so the fetch runs outside it.
    return database.db.transaction((tx) => syncWith(tx, deps, trigger, fetchOpts, startedAt, request));
  }

  return {
    /** Runs a sync, or joins the one already running in this process. */
    sync(trigger: SyncTrigger, signal?: AbortSignal, request?: SyncRequest): Promise<SyncRunResult> {
      // A preview or a confirmed run is its own run: it never joins one with other intentions.
      if (running && !request?.dryRun && !request?.confirm) return running;
      if (running) throw conflict('A sync is already running; try again in a minute', 'sync_running');
      const p = run(trigger, signal, request).finally(() => {
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

import type { SyncPlatformOutcome, SyncResult } from '../../../contracts/admin';
import type { Config } from '../../config';
import { tryXactLock } from '../../db/advisory-locks';
import type { Database, Db } from '../../db/client';
import type { Platform, SyncLogEntry } from '../../db/schema';
import { conflict } from '../../lib/errors';
import { BMC_LABEL, fetchBmcSubscriptions, fetchPatreonMembers, PATREON_LABEL, type PlatformRecordInput } from './clients';
import type { FetchOptions } from './http';
import { expirePassedMembers } from '../members/members-repository';
import {
  deleteUnlisted,
  reconcileUsers,
  recordGivesAccess,
  recordSyncRun,
  SYNC_LOG_MAX_ENTRIES,
  upsertPlatformRecords,
  type ReconcileResult,
} from './platforms-repository';

export type SyncTrigger = 'manual' | 'scheduled';

export const PLATFORM_LABELS: Record<Platform, string> = { patreon: PATREON_LABEL, buymeacoffee: BMC_LABEL };

export function platformConfigured(config: Config, platform: Platform): boolean {
  return platform === 'patreon' ? Boolean(config.PATREON_ACCESS_TOKEN && config.PATREON_CAMPAIGN_ID) : Boolean(config.BMC_ACCESS_TOKEN);
}

export interface SyncDeps {
  database: Database;
  config: Config;
}

export interface SyncRunResult extends SyncResult {
  /** True when another instance held the lock and this scheduled run did nothing. */
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
    const f = figures[c.platform] as (typeof figures)[Platform] | undefined;
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

/** Fetch both platforms, store their records, apply entitlements to members, run the expiry pass, record the run. */
async function syncWith(db: Db, deps: SyncDeps, trigger: SyncTrigger, opts: FetchOptions, startedAt: Date): Promise<SyncResult> {
  const fetched = await Promise.all((['patreon', 'buymeacoffee'] as const).map((p) => fetchPlatform(deps, p, opts)));
  const now = new Date();
  const complete: Platform[] = [];
  for (const { outcome, records } of fetched) {
    if (!outcome.ok) continue;
    await upsertPlatformRecords(db, records, 'sync', now);
    await deleteUnlisted(db, outcome.platform, new Set(records.map((r) => r.email)));
    complete.push(outcome.platform);
  }
  const reconciled = await reconcileUsers(db, { allWithRecords: true, completeListings: complete }, now);
  const updated = reconciled.changed + (await expirePassedMembers(db, now));
  const outcomes = fetched.map((f) => f.outcome);
  const errors = outcomes.filter((o) => o.error).map((o) => o.error as string);
  const log = syncLog(reconciled, now);
  await recordSyncRun(db, {
    trigger,
    startedAt,
    finishedAt: new Date(),
    ok: errors.length === 0,
    updated,
    platforms: outcomes.map((o) => (o.attempted ? { ...o, ...log.figures[o.platform] } : o)),
    errors,
    details: log.details,
  });
  return { updated, errors, platforms: outcomes };
}

/**
 * Runs one sync. Never two at once: within this process a second call joins the running one; across
 * instances on PostgreSQL a transaction-scoped advisory lock is held for the whole run (a manual sync
 * that finds it taken gets 409, a scheduled one is skipped). On PGlite (one process owns the
 * database) the platform calls happen outside the transaction so other requests are not held up.
 */
export function createSyncRunner(deps: SyncDeps, opts: FetchOptions = {}) {
  let running: Promise<SyncRunResult> | null = null;

  async function run(trigger: SyncTrigger, signal?: AbortSignal): Promise<SyncRunResult> {
    const startedAt = new Date();
    const fetchOpts: FetchOptions = { ...opts, ...(signal ? { signal } : {}) };
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
        return { ...(await syncWith(tx, deps, trigger, fetchOpts, startedAt)), skipped: false };
      });
    }
    return { ...(await syncWith(database.db, deps, trigger, fetchOpts, startedAt)), skipped: false };
  }

  return {
    /** Runs a sync, or joins the one already running in this process. */
    sync(trigger: SyncTrigger, signal?: AbortSignal): Promise<SyncRunResult> {
      if (running) return running;
      const p = run(trigger, signal).finally(() => {
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

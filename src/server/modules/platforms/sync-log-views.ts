import type { SyncRunDetail, SyncRunSummary } from '../../../contracts/supporters';
import { LOSS_WORDS, SYNC_WORDS } from '../../../contracts/admin';
import type { SyncLogEntry, SyncRunRow, SyncRunState } from '../../db/schema';
import { APPLYING_RUN_STALE_MS } from './platforms-repository';

/** A sync's run line: how many of its changes took access now and how many ended a subscription with access kept (its lines' notes). */
function lossNote(details: readonly SyncLogEntry[]): string | null {
  const lost = details.filter((d) => d.note === LOSS_WORDS.loseAccess).length;
  const stopped = details.filter((d) => d.note?.startsWith(LOSS_WORDS.stopPaying(''))).length;
  return lost || stopped ? SYNC_WORDS.lossSplit(lost, stopped) : null;
}

/** A run left 'applying' by a process that stopped shows as interrupted (its applied part can be reverted). */
export function runState(r: SyncRunRow, now: Date = new Date()): SyncRunState {
  return r.state === 'applying' && now.getTime() - r.finishedAt.getTime() > APPLYING_RUN_STALE_MS ? 'interrupted' : r.state;
}

/** Who ran a run and who reverted it, by username (syncRunsWithNames reads them). */
export interface RunPeople {
  startedBy: string | null;
  revertedBy: string | null;
}

/** A sync-log run as the admin list shows it (runs recorded before the log have no figures: null). */
export function toSyncRunSummary(r: SyncRunRow, people: RunPeople, now: Date = new Date()): SyncRunSummary {
  return {
    id: r.id,
    trigger: r.trigger,
    startedAt: r.startedAt.toISOString(),
    finishedAt: r.finishedAt.toISOString(),
    ok: r.ok,
    updated: r.updated,
    errors: r.errors,
    platforms: r.platforms.map((p) => ({
      platform: p.platform,
      attempted: p.attempted,
      ok: p.ok,
      fetched: p.fetched,
      error: p.error,
      matched: p.matched ?? null,
      unmatched: p.unmatched ?? null,
      changed: p.changed ?? null,
    })),
    note:
      r.trigger === 'webhook'
        ? (r.details.find((d) => d.kind === 'webhook')?.note ?? null)
        : r.trigger === 'manual' || r.trigger === 'scheduled'
          ? lossNote(r.details)
          : null,
    revertedAt: r.revertedAt ? r.revertedAt.toISOString() : null,
    revertedByRun: r.revertedByRun ?? null,
    // A run that changed members can be undone once (the details list its changes).
    revertible: !r.revertedAt && r.trigger !== 'revert' && r.updated > 0,
    state: runState(r, now),
    ...people,
  };
}

export function toSyncRunDetail(r: SyncRunRow, people: RunPeople): SyncRunDetail {
  return {
    ...toSyncRunSummary(r, people),
    entries: r.details.map((d) => ({
      kind: d.kind,
      platform: d.platform,
      email: d.email,
      userId: d.userId ?? null,
      memberEmail: d.memberEmail ?? null,
      from: d.from ?? null,
      to: d.to ?? null,
      note: d.note ?? null,
    })),
  };
}

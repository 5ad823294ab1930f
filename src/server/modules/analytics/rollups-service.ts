import type { MemberAccessSnapshot } from '../../../contracts/grants';
import { memberBucket } from '../../../contracts/tier-policy';
import { DAY_MS, HOUR_MS } from '../../../contracts/time';
import type { Db } from '../../db/client';
import { dublinDate, startOfDayDublin, startOfNextDayDublin } from '../../lib/dates';
import { badRequest } from '../../lib/errors';
import { activePledgesAt, changesBetween } from '../members/grants-repository';
import { memberCountsAt, membersCreatedBefore } from '../members/members-repository';
import { mixActivityBetween } from '../mixes/mixes-repository';
import { sessionPagesOverlapping } from './listening-sessions-repository';
import { rollUpListening } from './listening-rollup';
import { hasMemberSnapshot, replaceListeningDay, replaceMemberDay, replaceMixDay, type MemberDayFigure } from './rollups-repository';
import { ANALYTICS_MESSAGES } from '../../../contracts/analytics-values';

/** 1-minute concurrency is kept this long; 15-minute buckets for a year (the retention pass). */
export const MINUTE_COUNTS_MAX_AGE_MS = 7 * DAY_MS;
export const QUARTER_COUNTS_MAX_AGE_MS = 365 * DAY_MS;
/** Raw sessions are kept 30 days: a day older than this cannot be rebuilt from them. */
export const REBUILD_MAX_AGE_MS = 30 * DAY_MS;

/** The figures a day's member snapshot holds: taken when the day is rolled up, kept by a rebuild. */
const SNAPSHOT_FIGURES = ['members', 'mrr_cents', 'snapshot_taken'];
/** The day's flows, read from the members' history: rebuilt every time. */
const FLOW_FIGURES = ['new_paying', 'stopped_paying', 'came_back', 'conversions'];

/** The instants a Dublin day (YYYY-MM-DD) begins and ends. */
export function dayBounds(day: string): { start: Date; end: Date } {
  const start = startOfDayDublin(new Date(`${day}T12:00:00Z`));
  return { start, end: startOfNextDayDublin(start) };
}

/**
 * Rolls up one Dublin day: listening from the raw sessions (until now for today), the members' flows
 * from their history and the mixes' plays and downloads; the member counts and MRR are a snapshot of
 * now, taken while the day runs (the periodic job) or once for a past day that has none.
 */
export async function rollUpDay(db: Db, day: string, now: Date = new Date()): Promise<void> {
  const { start, end } = dayBounds(day);
  const until = new Date(Math.min(end.getTime(), now.getTime()));
  const { counts, days } = await rollUpListening(sessionPagesOverlapping(db, start, until), start, end, until);
  const keepMinutes = start.getTime() > now.getTime() - MINUTE_COUNTS_MAX_AGE_MS;
  await replaceListeningDay(
    db,
    day,
    start,
    end,
    counts.filter((c) => keepMinutes || c.resolutionMin !== 1),
    days,
  );
  await replaceMemberDay(db, day, FLOW_FIGURES, await memberFlows(db, start, until));
  if (now.getTime() < end.getTime() || !(await hasMemberSnapshot(db, day))) await replaceMemberDay(db, day, SNAPSHOT_FIGURES, await memberSnapshot(db, until));
  await replaceMixDay(db, day, await mixActivityBetween(db, start, until));
}

/** Refuses a day an admin may not rebuild: one to come, or one whose raw sessions are gone. */
export function checkRebuildable(day: string, now: Date = new Date()): void {
  const { start } = dayBounds(day);
  if (start.getTime() > now.getTime()) throw badRequest(ANALYTICS_MESSAGES.dayInFuture, 'day_in_future');
  if (start.getTime() < startOfDayDublin(now).getTime() - REBUILD_MAX_AGE_MS) throw badRequest(ANALYTICS_MESSAGES.dayTooOld, 'day_too_old');
}

/** A rollup to run: today so far (and yesterday in the first hour: the periodic job), or one day. */
export type RollupJob = { kind: 'recent' } | { kind: 'day'; day: string };

/** Runs a rollup job on `db` (in this process: rollup-process.ts decides where it runs). */
export function runRollupJob(db: Db, job: RollupJob, now: Date = new Date()): Promise<void> {
  return job.kind === 'recent' ? rollUpRecent(db, now) : rollUpDay(db, job.day, now);
}

/** The periodic job: today so far, and yesterday until its figures are final (the first run after midnight). */
async function rollUpRecent(db: Db, now: Date = new Date()): Promise<void> {
  const today = dublinDate(now);
  const startToday = startOfDayDublin(now);
  // Within the first hour of a day, yesterday is rolled up again: sessions that ended after midnight close it.
  if (now.getTime() - startToday.getTime() < HOUR_MS) await rollUpDay(db, dublinDate(new Date(startToday.getTime() - HOUR_MS)), now);
  await rollUpDay(db, today, now);
}

async function memberSnapshot(db: Db, at: Date): Promise<MemberDayFigure[]> {
  const counts = await memberCountsAt(db, at);
  const pledges = await activePledgesAt(db, at);
  return [
    ...counts.map((c) => ({ figure: 'members', bucket: c.bucket, tier: c.tier, platform: c.platform, value: c.n })),
    ...pledges.map((p) => ({ figure: 'mrr_cents', bucket: '', tier: p.tier, platform: p.platform, value: p.cents })),
    { figure: 'snapshot_taken', bucket: '', tier: '', platform: '', value: at.getTime() },
  ];
}

const bucketOf = (s: MemberAccessSnapshot, at: Date) =>
  memberBucket({ isAdmin: false, subscriptionTier: s.tier, subscriptionStatus: s.status, subscriptionExpiry: s.expiry ? new Date(s.expiry) : null }, at);

/**
 * The day's flows, from each member's subscription at the day's start (the first change's `before`)
 * and at its end (the last change's `after`): paying is the dashboard's 'active' bucket. New paying:
 * never paid before; came back: had paid before (the 'expired' bucket); conversions: new paying
 * members whose free account existed before the day; stopped paying: active at the start, not at the end.
 */
async function memberFlows(db: Db, start: Date, until: Date): Promise<MemberDayFigure[]> {
  const firstLast = new Map<string, { before: MemberAccessSnapshot; after: MemberAccessSnapshot }>();
  for (const c of await changesBetween(db, start, until)) {
    const seen = firstLast.get(c.userId);
    firstLast.set(c.userId, { before: seen?.before ?? c.before, after: c.after });
  }
  const existed = await membersCreatedBefore(db, [...firstLast.keys()], start);
  const tally = new Map<string, MemberDayFigure>();
  const add = (figure: string, s: MemberAccessSnapshot) => {
    const key = `${figure}|${s.tier}|${s.source}`;
    const row = tally.get(key) ?? { figure, bucket: '', tier: s.tier, platform: s.source, value: 0 };
    row.value += 1;
    tally.set(key, row);
  };
  for (const [userId, { before, after }] of firstLast) {
    const was = bucketOf(before, start);
    const is = bucketOf(after, until);
    if (was === 'active' && is !== 'active') add('stopped_paying', before);
    if (was === 'active' || is !== 'active') continue;
    if (was === 'free') {
      add('new_paying', after);
      if (existed.has(userId)) add('conversions', after);
    } else add('came_back', after);
  }
  return [...tally.values()];
}

import type { AnalyticsSummary, Compared, PeriodFigures } from '../../../contracts/analytics';
import type { Db } from '../../db/client';
import { dublinDate } from '../../lib/dates';
import { mixTitles } from '../mixes/mixes-repository';
import { ALL_CHANNELS } from './listening-rollup';
import { listeningDaysBetween, memberDaysBetween, mixTotalsBetween, type ListeningDayRow, type MemberDayRow } from './rollups-repository';

/** Mixes a summary lists. */
const TOP_MIXES = 5;

interface RawFigures {
  listeners: number;
  listeningHours: number;
  sessions: number;
  peak: number;
  peakAt: string | null;
  payingMembers: number;
  membersWithAccess: number;
  mrrEuros: number;
  newPaying: number;
  stoppedPaying: number;
  cameBack: number;
  conversions: number;
  topMixes: { mixId: string; plays: number; downloads: number }[];
}

/** The rollups' rows of a period, when the caller has read them already (the analytics page draws them too). */
export interface PeriodRows {
  totals: ListeningDayRow[];
  members: MemberDayRow[];
}

/** The figures of the days [fromDay, toDay] from the rollups. */
export async function rawFigures(db: Db, fromDay: string, toDay: string, read?: PeriodRows): Promise<RawFigures> {
  const totals = (read?.totals ?? (await listeningDaysBetween(db, fromDay, toDay, 'total'))).filter((d) => d.channelId === ALL_CHANNELS);
  const members = read?.members ?? (await memberDaysBetween(db, fromDay, toDay));
  // Counts and MRR are a snapshot: the last day of the period that has one.
  const lastSnapshot = members.filter((m) => m.figure === 'snapshot_taken').at(-1)?.day;
  const at = members.filter((m) => m.day === lastSnapshot);
  const sum = (rows: { value: number }[]) => rows.reduce((n, r) => n + r.value, 0);
  const flow = (figure: string) => sum(members.filter((m) => m.figure === figure));
  const peakDay = totals.reduce<(typeof totals)[number] | undefined>((best, d) => (!best || d.peak > best.peak ? d : best), undefined);
  return {
    listeners: totals.length ? totals.reduce((n, d) => n + d.uniques, 0) / totals.length : 0,
    listeningHours: totals.reduce((n, d) => n + d.hours, 0),
    sessions: totals.reduce((n, d) => n + d.sessions, 0),
    peak: peakDay?.peak ?? 0,
    peakAt: peakDay?.peakAt?.toISOString() ?? null,
    payingMembers: sum(at.filter((m) => m.figure === 'members' && m.bucket === 'active')),
    membersWithAccess: sum(at.filter((m) => m.figure === 'members' && (m.bucket === 'active' || m.bucket === 'cancelledWithAccess'))),
    mrrEuros: sum(at.filter((m) => m.figure === 'mrr_cents')) / 100,
    newPaying: flow('new_paying'),
    stoppedPaying: flow('stopped_paying'),
    cameBack: flow('came_back'),
    conversions: flow('conversions'),
    topMixes: await mixTotalsBetween(db, fromDay, toDay, TOP_MIXES),
  };
}

const compared = (value: number, previous: number): Compared => ({ value, previous, change: previous === 0 ? null : (value - previous) / previous });

/** A period's figures against the previous period's. */
export async function comparedFigures(db: Db, period: [string, string], previous: [string, string], periodRows?: PeriodRows): Promise<PeriodFigures> {
  const now = await rawFigures(db, ...period, periodRows);
  const before = await rawFigures(db, ...previous);
  const titles = await mixTitles(
    db,
    now.topMixes.map((m) => m.mixId),
  );
  const pick = (k: Exclude<keyof RawFigures, 'peakAt' | 'topMixes'>) => compared(now[k], before[k]);
  return {
    listeners: pick('listeners'),
    listeningHours: pick('listeningHours'),
    sessions: pick('sessions'),
    peak: { ...pick('peak'), at: now.peakAt },
    payingMembers: pick('payingMembers'),
    membersWithAccess: pick('membersWithAccess'),
    mrrEuros: pick('mrrEuros'),
    newPaying: pick('newPaying'),
    stoppedPaying: pick('stoppedPaying'),
    cameBack: pick('cameBack'),
    conversions: pick('conversions'),
    topMixes: now.topMixes.map((m) => ({ ...m, title: titles.get(m.mixId) ?? m.mixId })),
  };
}

/** The first and last day of a month (YYYY-MM) and of the month before. */
export function monthDays(month: string): { from: string; to: string; previousFrom: string; previousTo: string } {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const day = (yy: number, mm: number, dd: number) => new Date(Date.UTC(yy, mm - 1, dd)).toISOString().slice(0, 10);
  return { from: day(y, m, 1), to: day(y, m + 1, 0), previousFrom: day(y, m - 1, 1), previousTo: day(y, m, 0) };
}

/** The month's summary (the current month so far when none is given). */
export async function monthSummary(db: Db, month: string | undefined, now: Date = new Date()): Promise<AnalyticsSummary> {
  const m = month ?? dublinDate(now).slice(0, 7);
  const days = monthDays(m);
  return { month: m, ...days, figures: await comparedFigures(db, [days.from, days.to], [days.previousFrom, days.previousTo]) };
}

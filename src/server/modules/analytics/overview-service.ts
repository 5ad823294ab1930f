import { ANALYTICS_MESSAGES } from '../../../contracts/analytics-values';
import type { AnalyticsOverview } from '../../../contracts/analytics';
import { DAY_MS } from '../../../contracts/time';
import type { Db } from '../../db/client';
import { badRequest } from '../../lib/errors';
import { ALL_CHANNELS } from './listening-rollup';
import { listenerSeries, listeningDaysBetween, memberDaysBetween } from './rollups-repository';
import { dayBounds } from './rollups-service';
import { comparedFigures } from './summary-service';

/** The longest range the page reads (a year and a margin for the custom range). */
export const OVERVIEW_MAX_DAYS = 400;
/** Up to this many days the listeners chart has 15-minute points; beyond, one a day. */
const QUARTER_POINTS_MAX_DAYS = 31;

const shiftDay = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;

/** What the analytics page draws for the Dublin days [from, to] and the same number of days before. */
export async function overview(db: Db, from: string, to: string): Promise<AnalyticsOverview> {
  if (Number.isNaN(Date.parse(`${from}T00:00:00Z`)) || Number.isNaN(Date.parse(`${to}T00:00:00Z`))) throw badRequest(ANALYTICS_MESSAGES.badRange, 'bad_range');
  const length = daysBetween(from, to);
  if (length < 1 || length > OVERVIEW_MAX_DAYS) throw badRequest(ANALYTICS_MESSAGES.badRange, 'bad_range');
  const previousTo = shiftDay(from, -1);
  const previousFrom = shiftDay(from, -length);
  const totals = await listeningDaysBetween(db, from, to, 'total');
  const members = await memberDaysBetween(db, from, to);
  return {
    from,
    to,
    previousFrom,
    previousTo,
    // The period's rows are read once, for the charts and its figures both.
    figures: await comparedFigures(db, [from, to], [previousFrom, previousTo], { totals, members }),
    listeners: length <= QUARTER_POINTS_MAX_DAYS ? await quarterSeries(db, from, to) : dailySeries(totals),
    days: totals
      .filter((d) => d.channelId === ALL_CHANNELS)
      .map((d) => ({ day: d.day, hours: d.hours, uniques: d.uniques, sessions: d.sessions, peak: d.peak })),
    countries: await breakdown(db, from, to, 'country'),
    players: await breakdown(db, from, to, 'player'),
    ...memberSeries(members),
  };
}

async function quarterSeries(db: Db, from: string, to: string): Promise<AnalyticsOverview['listeners']> {
  const rows = await listenerSeries(db, 15, dayBounds(from).start, dayBounds(to).end);
  return pivot(rows.map((r) => ({ at: r.at.toISOString(), channel: r.channelId, value: r.average })));
}

function dailySeries(totals: { day: string; channelId: string; hours: number }[]): AnalyticsOverview['listeners'] {
  // A day's mean concurrent listeners: its listening hours over 24.
  return pivot(
    totals.filter((d) => d.channelId !== ALL_CHANNELS).map((d) => ({ at: dayBounds(d.day).start.toISOString(), channel: d.channelId, value: d.hours / 24 })),
  );
}

function pivot(rows: { at: string; channel: string; value: number }[]): AnalyticsOverview['listeners'] {
  const channels = [...new Set(rows.map((r) => r.channel))].sort();
  const byAt = new Map<string, number[]>();
  for (const r of rows) {
    let values = byAt.get(r.at);
    if (!values) byAt.set(r.at, (values = channels.map(() => 0)));
    values[channels.indexOf(r.channel)] = Math.round(r.value * 100) / 100;
  }
  return { channels, points: [...byAt.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([at, values]) => ({ at, values })) };
}

async function breakdown(db: Db, from: string, to: string, dimension: 'country' | 'player') {
  const sums = new Map<string, { value: string; hours: number; sessions: number }>();
  for (const r of await listeningDaysBetween(db, from, to, dimension)) {
    if (r.channelId !== ALL_CHANNELS) continue;
    const s = sums.get(r.value) ?? { value: r.value, hours: 0, sessions: 0 };
    s.hours += r.hours;
    s.sessions += r.sessions;
    sums.set(r.value, s);
  }
  return [...sums.values()].sort((a, b) => b.hours - a.hours).slice(0, 300);
}

function memberSeries(rows: { day: string; figure: string; bucket: string; tier: string; platform: string; value: number }[]) {
  // Rows grouped by day once: a year is hundreds of days of tens of rows, and scanning every row for
  // each day's figure was the slowest part of a 365-day read.
  const byDay = new Map<string, typeof rows>();
  for (const r of rows) {
    const list = byDay.get(r.day);
    if (list) list.push(r);
    else byDay.set(r.day, [r]);
  }
  const days = [...byDay.keys()].sort();
  const rowsOf = (day: string, figure: string) => (byDay.get(day) ?? []).filter((r) => r.figure === figure);
  const sumBy = (day: string, figure: string, key: 'tier' | 'platform', keep: (r: (typeof rows)[number]) => boolean = () => true) => {
    const out: Record<string, number> = {};
    for (const r of rowsOf(day, figure)) if (keep(r)) out[r[key]] = (out[r[key]] ?? 0) + r.value;
    return out;
  };
  const flow = (day: string, figure: string) => rowsOf(day, figure).reduce((n, r) => n + r.value, 0);
  const snapshotDays = days.filter((d) => rowsOf(d, 'snapshot_taken').length > 0);
  return {
    members: snapshotDays.map((day) => ({ day, byTier: sumBy(day, 'members', 'tier', (r) => r.bucket === 'active' || r.bucket === 'cancelledWithAccess') })),
    mrr: snapshotDays.map((day) => ({
      day,
      byPlatform: Object.fromEntries(Object.entries(sumBy(day, 'mrr_cents', 'platform')).map(([k, v]) => [k, v / 100])),
    })),
    flows: days.map((day) => ({
      day,
      newPaying: flow(day, 'new_paying'),
      stoppedPaying: flow(day, 'stopped_paying'),
      cameBack: flow(day, 'came_back'),
      conversions: flow(day, 'conversions'),
    })),
  };
}

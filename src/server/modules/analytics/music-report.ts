import { ANALYTICS_MESSAGES } from '../../../contracts/analytics-values';
import { DAY_MS, HOUR_MS, SECOND_MS } from '../../../contracts/time';
import type { Db } from '../../db/client';
import { badRequest } from '../../lib/errors';
import { csvCell } from '../admin/members-export-service';
import { playsBetween, type ReportPlay } from '../tracks/tracks-repository';
import { sessionPagesOverlapping } from './listening-sessions-repository';
import { dayBounds } from './rollups-service';

/** The longest range one report covers: its tuning hours are read from the raw sessions, kept 30 days. */
export const MUSIC_REPORT_MAX_DAYS = 31;

export const MUSIC_REPORT_COLUMNS = ['channel', 'start', 'end', 'artist', 'title', 'isrc', 'plays', 'tuning_hours'] as const;

/** One line of the report: a play, the plays of its track (channel, artist, title) in the range, and its aggregate tuning hours. */
export interface MusicReportLine extends ReportPlay {
  plays: number;
  tuningHours: number;
}

/** The Dublin days [fromDay, toDay] as instants; refused when reversed or longer than the report covers. */
export function reportRange(fromDay: string, toDay: string): { from: Date; to: Date } {
  const from = dayBounds(fromDay).start;
  const to = dayBounds(toDay).end;
  if (to.getTime() <= from.getTime() || to.getTime() - from.getTime() > (MUSIC_REPORT_MAX_DAYS + 1) * DAY_MS)
    throw badRequest(ANALYTICS_MESSAGES.badReportRange, 'bad_range');
  return { from, to };
}

/**
 * Each identified play in [from, to) with its aggregate tuning hours: the sum over its duration of the
 * channel's concurrent listeners × time, from the listening sessions (every mount of the channel), to
 * the second: a per-second listener count per channel, summed over each play with a prefix sum.
 */
export async function musicReport(db: Db, from: Date, to: Date, channel: string | undefined): Promise<MusicReportLine[]> {
  const plays = await playsBetween(db, from, to, channel);
  if (!plays.length) return [];
  const start = plays[0]?.startedAt.getTime() ?? from.getTime();
  const end = Math.max(...plays.map((p) => p.endedAt.getTime()));
  const seconds = Math.max(1, Math.ceil((end - start) / SECOND_MS));
  const prefix = new Map<string, Float64Array>();
  for await (const page of sessionPagesOverlapping(db, new Date(start), new Date(end)))
    for (const s of page) {
      if (channel && s.channelId !== channel) continue;
      let p = prefix.get(s.channelId);
      if (!p) prefix.set(s.channelId, (p = new Float64Array(seconds + 1)));
      // Difference array first (turned into a prefix sum of listener-seconds below).
      const a = Math.max(0, (s.startedMs - start) / SECOND_MS);
      const b = Math.min(seconds, ((s.endedMs ?? s.lastSeenMs) - start) / SECOND_MS);
      if (b <= a) continue;
      addFractional(p, a, 1);
      addFractional(p, b, -1);
    }
  for (const p of prefix.values()) {
    // diff → level per second → cumulative listener-seconds.
    let level = 0;
    let total = 0;
    for (let i = 0; i <= seconds; i++) {
      level += p[i] ?? 0;
      p[i] = total;
      total += level;
    }
  }
  const counts = new Map<string, number>();
  const key = (p: ReportPlay) => `${p.channel}\u0000${p.artist.toLowerCase()}\u0000${p.title.toLowerCase()}`;
  for (const p of plays) counts.set(key(p), (counts.get(key(p)) ?? 0) + 1);
  return plays.map((p) => {
    const cum = prefix.get(p.channel);
    const at = (t: number) => {
      const x = Math.min(seconds, Math.max(0, (t - start) / SECOND_MS));
      const i = Math.floor(x);
      const lo = cum?.[i] ?? 0;
      const hi = cum?.[Math.min(seconds, i + 1)] ?? lo;
      return lo + (hi - lo) * (x - i);
    };
    const listenerSeconds = at(p.endedAt.getTime()) - at(p.startedAt.getTime());
    return { ...p, plays: counts.get(key(p)) ?? 1, tuningHours: (listenerSeconds * SECOND_MS) / HOUR_MS };
  });
}

/** A step at a fractional second is split between the two seconds around it, so a session's length is kept to the millisecond. */
function addFractional(diff: Float64Array, at: number, sign: 1 | -1): void {
  const i = Math.floor(at);
  const frac = at - i;
  diff[i] = (diff[i] ?? 0) + sign * (1 - frac);
  if (i + 1 < diff.length) diff[i + 1] = (diff[i + 1] ?? 0) + sign * frac;
}

/** The report as CSV (cells that a spreadsheet would run as formulas are quoted: csvCell). */
export function musicReportCsv(lines: readonly MusicReportLine[]): string {
  const row = (cells: string[]) => `${cells.map(csvCell).join(',')}\r\n`;
  return (
    row([...MUSIC_REPORT_COLUMNS]) +
    lines
      .map((l) =>
        row([l.channel, l.startedAt.toISOString(), l.endedAt.toISOString(), l.artist, l.title, l.isrc ?? '', String(l.plays), l.tuningHours.toFixed(3)]),
      )
      .join('')
  );
}

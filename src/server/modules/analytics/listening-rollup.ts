import { HOUR_MS, SECOND_MS } from '../../../contracts/time';
import { turnTaker } from '../../lib/event-loop';

/**
 * What the rollups and the music report read of a session: no identity beyond network and user agent
 * (never written). Times are epoch milliseconds: a day is tens of thousands of sessions, and a Date per
 * time, made by the driver and mapped again by the query builder, was most of a rollup's event-loop time.
 */
export interface SessionSpan {
  channelId: string;
  mount: string;
  network: string;
  userAgent: string;
  country: string | null;
  player: string;
  startedMs: number;
  /** Null while open: it then ends, for now, when a list last named it. */
  endedMs: number | null;
  lastSeenMs: number;
}

export interface CountBucket {
  channelId: string;
  mount: string;
  resolutionMin: 1 | 15;
  at: Date;
  average: number;
  peak: number;
}

export interface DayFigure {
  channelId: string;
  dimension: 'total' | 'country' | 'player';
  value: string;
  uniques: number;
  sessions: number;
  hours: number;
  avgSessionS: number;
  peak: number;
  peakAt: Date | null;
}

/** Every channel together, in the day figures. */
export const ALL_CHANNELS = 'all';
/** The country of a session whose address points nowhere (a private network, no match). */
export const UNKNOWN_COUNTRY = '??';

/**
 * A day's listening from its sessions, for [dayStart, until) (until: the day's end, or now for today).
 * Concurrency is counted per second (a difference array per mount), so averages, peaks and hours are
 * exact: a listener present 30 minutes adds 0.5 listening hours.
 */
export async function rollUpListening(
  pages: AsyncIterable<readonly SessionSpan[]>,
  dayStart: Date,
  dayEnd: Date,
  until: Date,
): Promise<{ counts: CountBucket[]; days: DayFigure[] }> {
  const from = dayStart.getTime();
  const to = Math.min(until.getTime(), dayEnd.getTime());
  const seconds = Math.max(0, Math.ceil((to - from) / SECOND_MS));
  const perMount = new Map<string, { channelId: string; mount: string; diff: Int32Array }>();
  const groups = new Map<string, Group>();
  /** The six groups a session counts in (its channel and all, by total, country and player), by channel, country and player. */
  const groupsOf = new Map<string, Group[]>();
  // A day of a busy station is tens of thousands of sessions: listeners' requests go in between (ADR 0034).
  const takeTurn = turnTaker();
  for await (const page of pages)
    for (let n = 0; n < page.length; n++) {
      if (n % SESSIONS_PER_STEP === 0) await takeTurn();
      const s = page[n]!;
      const endAt = s.endedMs ?? s.lastSeenMs;
      const start = Math.max(s.startedMs, from);
      const end = Math.min(endAt, to);
      const startedToday = s.startedMs >= from && s.startedMs < dayEnd.getTime();
      if (end <= start && !startedToday) continue;
      const overlap = Math.max(0, end - start);
      if (overlap > 0) {
        const key = `${s.channelId}\u0000${s.mount}`;
        let m = perMount.get(key);
        if (!m) perMount.set(key, (m = { channelId: s.channelId, mount: s.mount, diff: new Int32Array(seconds + 1) }));
        const a = Math.floor((start - from) / SECOND_MS);
        const b = Math.min(seconds, Math.ceil((end - from) / SECOND_MS));
        m.diff[a] = (m.diff[a] ?? 0) + 1;
        m.diff[b] = (m.diff[b] ?? 0) - 1;
      }
      const country = s.country ?? UNKNOWN_COUNTRY;
      const kind = `${s.channelId}\u0000${country}\u0000${s.player}`;
      let mine = groupsOf.get(kind);
      if (!mine) {
        mine = [s.channelId, ALL_CHANNELS].flatMap((channelId) => [
          groupOf(groups, channelId, 'total', ''),
          groupOf(groups, channelId, 'country', country),
          groupOf(groups, channelId, 'player', s.player),
        ]);
        groupsOf.set(kind, mine);
      }
      const listener = `${s.network}\u0000${s.userAgent}`;
      const duration = startedToday ? Math.max(0, endAt - s.startedMs) : null;
      for (const g of mine) g.add(listener, overlap, duration);
    }
  const counts: CountBucket[] = [];
  const channelTotals = new Map<string, Int32Array>();
  for (const m of perMount.values()) {
    // A day is 86,400 seconds per mount: the per-second passes go an hour at a time.
    const level = new Int32Array(seconds);
    let running = 0;
    for (let i = 0; i < seconds; i++) {
      level[i] = running += m.diff[i] ?? 0;
      if (i % SECONDS_PER_STEP === 0) await takeTurn();
    }
    for (const total of [m.channelId, ALL_CHANNELS]) {
      let t = channelTotals.get(total);
      if (!t) channelTotals.set(total, (t = new Int32Array(seconds)));
      for (let i = 0; i < seconds; i++) {
        t[i] = (t[i] ?? 0) + (level[i] ?? 0);
        if (i % SECONDS_PER_STEP === 0) await takeTurn();
      }
    }
    for (const resolutionMin of [1, 15] as const) counts.push(...(await buckets(m.channelId, m.mount, level, from, resolutionMin, takeTurn)));
  }
  const days: DayFigure[] = [];
  for (const g of groups.values()) {
    await takeTurn();
    days.push(g.figure(channelTotals.get(g.channelId), from));
  }
  return { counts, days };
}

/** Sessions folded between two looks at the clock (turnTaker): an await per session was a tenth of the fold. */
const SESSIONS_PER_STEP = 64;
/** Seconds of a per-second pass between two looks at the clock (turnTaker). */
const SECONDS_PER_STEP = 3_600;

async function buckets(
  channelId: string,
  mount: string,
  level: Int32Array,
  from: number,
  resolutionMin: 1 | 15,
  takeTurn: () => Promise<void>,
): Promise<CountBucket[]> {
  const width = resolutionMin * 60;
  const out: CountBucket[] = [];
  for (let i = 0; i < level.length; i += width) {
    if (i % SECONDS_PER_STEP === 0) await takeTurn();
    let sum = 0;
    let peak = 0;
    const end = Math.min(level.length, i + width);
    for (let j = i; j < end; j++) {
      const v = level[j] ?? 0;
      sum += v;
      if (v > peak) peak = v;
    }
    // A bucket nobody listened in is not written: the reads treat a missing bucket as 0.
    if (peak > 0) out.push({ channelId, mount, resolutionMin, at: new Date(from + i * SECOND_MS), average: sum / (end - i), peak });
  }
  return out;
}

function groupOf(groups: Map<string, Group>, channelId: string, dimension: DayFigure['dimension'], value: string): Group {
  const key = `${channelId}\u0000${dimension}\u0000${value}`;
  let g = groups.get(key);
  if (!g) groups.set(key, (g = new Group(channelId, dimension, value)));
  return g;
}

class Group {
  private readonly listeners = new Set<string>();
  private sessions = 0;
  private overlapMs = 0;
  private durationMs = 0;

  constructor(
    readonly channelId: string,
    readonly dimension: DayFigure['dimension'],
    readonly value: string,
  ) {}

  add(listener: string, overlapMs: number, startedTodayDurationMs: number | null): void {
    if (overlapMs > 0) this.listeners.add(listener);
    this.overlapMs += overlapMs;
    if (startedTodayDurationMs !== null) {
      this.sessions += 1;
      this.durationMs += startedTodayDurationMs;
    }
  }

  figure(level: Int32Array | undefined, from: number): DayFigure {
    let peak = 0;
    let peakAt: Date | null = null;
    if (this.dimension === 'total' && level)
      for (let i = 0; i < level.length; i++)
        if ((level[i] ?? 0) > peak) {
          peak = level[i] ?? 0;
          peakAt = new Date(from + i * SECOND_MS);
        }
    return {
      channelId: this.channelId,
      dimension: this.dimension,
      value: this.value,
      uniques: this.listeners.size,
      sessions: this.sessions,
      hours: this.overlapMs / HOUR_MS,
      avgSessionS: this.sessions ? Math.round(this.durationMs / this.sessions / SECOND_MS) : 0,
      peak,
      peakAt,
    };
  }
}

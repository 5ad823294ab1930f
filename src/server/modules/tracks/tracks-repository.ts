import { and, asc, count, countDistinct, desc, eq, gte, isNotNull, lt, max, min, or, sql } from 'drizzle-orm';
import { searchUrls, type TrackHistoryStats, type TrackIdentification } from '../../../contracts/radio';
import type { Db } from '../../db/client';
import { trackIdentifications, type TrackIdentificationRow } from '../../db/schema';
import type { Recognition } from './recognizers';
import { HOUR_MS, MINUTE_MS } from '../../../contracts/time';

const norm = (s: string) => s.trim().toLowerCase();

/** Identifications stored, all channels. */
export async function countIdentifications(db: Db): Promise<number> {
  const rows = await db.select({ n: count() }).from(trackIdentifications);
  return rows[0]?.n ?? 0;
}

/** Stored rows keep only direct links; search links are filled in when a row is sent out. */
export function toTrackIdentification(row: TrackIdentificationRow): TrackIdentification {
  const search = searchUrls(row.artist, row.title);
  return {
    id: row.id,
    channel: row.channel,
    title: row.title,
    artist: row.artist,
    album: row.album,
    artwork: row.artwork,
    confidence: row.confidence,
    service: row.service,
    duration: row.durationS,
    releaseDate: row.releaseDate,
    label: row.label,
    genre: row.genre,
    bpm: row.bpm,
    identifiedAt: row.identifiedAt.toISOString(),
    youtubeUrl: row.youtubeUrl ?? search.youtubeUrl,
    soundcloudUrl: row.soundcloudUrl ?? search.soundcloudUrl,
    spotifyUrl: row.spotifyUrl ?? search.spotifyUrl,
  };
}

export async function latestTrack(db: Db, channel: string): Promise<TrackIdentificationRow | undefined> {
  const [row] = await db
    .select()
    .from(trackIdentifications)
    .where(eq(trackIdentifications.channel, channel))
    .orderBy(desc(trackIdentifications.identifiedAt))
    .limit(1);
  return row;
}

/**
 * Stores what is playing unless it is the track already playing: the same artist and title as the
 * channel's latest row, seen within `stillPlayingMs`, only extends that row.
 * Returns the new row, or undefined when the play was already stored.
 */
export async function recordPlay(
  db: Db,
  channel: string,
  rec: Recognition,
  stillPlayingMs: number,
  now = new Date(),
): Promise<TrackIdentificationRow | undefined> {
  return db.transaction(async (tx) => {
    // One monitor per channel per instance; the row lock keeps two instances from both inserting.
    const [latest] = await tx
      .select()
      .from(trackIdentifications)
      .where(eq(trackIdentifications.channel, channel))
      .orderBy(desc(trackIdentifications.identifiedAt))
      .limit(1)
      .for('update');
    const samePlay =
      latest &&
      norm(latest.artist) === norm(rec.artist) &&
      norm(latest.title) === norm(rec.title) &&
      now.getTime() - latest.lastSeenAt.getTime() <= stillPlayingMs;
    if (samePlay) {
      await tx.update(trackIdentifications).set({ lastSeenAt: now }).where(eq(trackIdentifications.id, latest.id));
      return undefined;
    }
    const [row] = await tx
      .insert(trackIdentifications)
      .values({ channel, ...rec, identifiedAt: now, lastSeenAt: now })
      .returning();
    return row;
  });
}

export async function recentTracks(db: Db, channel: string, limit: number): Promise<TrackIdentificationRow[]> {
  return db.select().from(trackIdentifications).where(eq(trackIdentifications.channel, channel)).orderBy(desc(trackIdentifications.identifiedAt)).limit(limit);
}

export async function trackHistory(db: Db, channel: string | undefined, limit: number): Promise<{ rows: TrackIdentificationRow[]; stats: TrackHistoryStats }> {
  const where = channel ? eq(trackIdentifications.channel, channel) : undefined;
  const rows = await db.select().from(trackIdentifications).where(where).orderBy(desc(trackIdentifications.identifiedAt)).limit(limit);
  const [s] = await db
    .select({
      total: count(),
      uniqueArtists: countDistinct(sql`lower(${trackIdentifications.artist})`),
      highConfidence: count(sql`case when ${trackIdentifications.confidence} >= 80 then 1 end`),
      withLinks: count(
        sql`case when ${or(isNotNull(trackIdentifications.youtubeUrl), isNotNull(trackIdentifications.soundcloudUrl), isNotNull(trackIdentifications.spotifyUrl))} then 1 end`,
      ),
      firstAt: min(trackIdentifications.identifiedAt),
      lastAt: max(trackIdentifications.identifiedAt),
    })
    .from(trackIdentifications)
    .where(where);
  const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);
  return {
    rows,
    stats: {
      total: Number(s?.total ?? 0),
      uniqueArtists: Number(s?.uniqueArtists ?? 0),
      highConfidence: Number(s?.highConfidence ?? 0),
      withLinks: Number(s?.withLinks ?? 0),
      firstAt: iso(s?.firstAt),
      lastAt: iso(s?.lastAt),
    },
  };
}

export async function deleteHistory(db: Db, channel: string | undefined): Promise<number> {
  const deleted = await db
    .delete(trackIdentifications)
    .where(channel ? eq(trackIdentifications.channel, channel) : undefined)
    .returning({ id: trackIdentifications.id });
  return deleted.length;
}

/** How far apart two plays may be to count as "played near it". */
const NEAR_MS = 30 * MINUTE_MS;
const CANDIDATES = 20;

/**
 * Candidates for "similar tracks", from the station's own history only, best first:
 * the same artist, then tracks played near the seed track, then the same genre or a bpm within 3.
 */
export async function similarCandidates(db: Db, artist: string, title: string, channel: string): Promise<TrackIdentificationRow[]> {
  const a = norm(artist);
  const t = norm(title);
  const ti = trackIdentifications;
  const isSeed = and(eq(sql`lower(${ti.artist})`, a), eq(sql`lower(${ti.title})`, t));
  const notSeed = sql`not (lower(${ti.artist}) = ${a} and lower(${ti.title}) = ${t})`;

  const sameArtist = await db
    .select()
    .from(ti)
    .where(and(eq(sql`lower(${ti.artist})`, a), notSeed))
    .orderBy(desc(ti.identifiedAt))
    .limit(CANDIDATES);

  // The seed's own plays (any channel, newest first) anchor "near in time" and give its genre/bpm.
  const seeds = await db.select().from(ti).where(isSeed).orderBy(desc(ti.identifiedAt)).limit(CANDIDATES);
  const near: TrackIdentificationRow[] = [];
  for (const s of seeds) {
    const from = new Date(s.identifiedAt.getTime() - NEAR_MS);
    const to = new Date(s.identifiedAt.getTime() + NEAR_MS);
    const rows = await db
      .select()
      .from(ti)
      .where(and(eq(ti.channel, s.channel), gte(ti.identifiedAt, from), sql`${ti.identifiedAt} <= ${to.toISOString()}`, notSeed))
      .orderBy(sql`abs(extract(epoch from (${ti.identifiedAt} - ${s.identifiedAt.toISOString()}::timestamptz)))`)
      .limit(CANDIDATES);
    near.push(...rows);
    if (near.length >= CANDIDATES) break;
  }

  const genre = seeds.find((s) => s.genre)?.genre ?? null;
  const bpm = seeds.find((s) => s.bpm !== null)?.bpm ?? null;
  let alike: TrackIdentificationRow[] = [];
  if (genre !== null || bpm !== null) {
    const conds = [];
    if (genre !== null) conds.push(eq(sql`lower(${ti.genre})`, norm(genre)));
    if (bpm !== null) conds.push(sql`${ti.bpm} between ${bpm - 3} and ${bpm + 3}`);
    alike = await db
      .select()
      .from(ti)
      .where(and(or(...conds), notSeed))
      // The listener's channel first, then newest.
      .orderBy(sql`case when ${ti.channel} = ${channel} then 0 else 1 end`, desc(ti.identifiedAt))
      .limit(CANDIDATES);
  }
  return [...sameArtist, ...near, ...alike];
}

/** A play in the music report: the identification and when it ended. */
export interface ReportPlay {
  channel: string;
  artist: string;
  title: string;
  isrc: string | null;
  startedAt: Date;
  endedAt: Date;
}

/** How far past the range the next play is looked for (to end the range's last play). */
const NEXT_PLAY_HORIZON_MS = 6 * HOUR_MS;

/**
 * The plays that began in [from, to), oldest first, on one channel or all. A play ends where the next
 * one on its channel begins, and no later than the last monitor run that heard it or its own length
 * says (a station that went quiet does not stretch a track over the silence).
 */
export async function playsBetween(db: Db, from: Date, to: Date, channel: string | undefined): Promise<ReportPlay[]> {
  const horizon = new Date(to.getTime() + NEXT_PLAY_HORIZON_MS);
  const t = trackIdentifications;
  const rows = await db
    .select({
      channel: t.channel,
      artist: t.artist,
      title: t.title,
      isrc: t.isrc,
      startedAt: t.identifiedAt,
      nextAt: sql<string | Date | null>`lead(${t.identifiedAt}) over (partition by ${t.channel} order by ${t.identifiedAt})`,
      lastSeenAt: t.lastSeenAt,
      durationS: t.durationS,
    })
    .from(t)
    .where(and(gte(t.identifiedAt, from), lt(t.identifiedAt, horizon), channel ? eq(t.channel, channel) : undefined))
    .orderBy(asc(t.identifiedAt), asc(t.channel));
  return rows
    .filter((r) => r.startedAt.getTime() < to.getTime())
    .map((r) => {
      const own = Math.max(r.lastSeenAt.getTime(), r.startedAt.getTime() + (r.durationS ?? 0) * 1000);
      const next = r.nextAt ? new Date(r.nextAt).getTime() : Number.POSITIVE_INFINITY;
      return { channel: r.channel, artist: r.artist, title: r.title, isrc: r.isrc, startedAt: r.startedAt, endedAt: new Date(Math.min(own, next)) };
    });
}

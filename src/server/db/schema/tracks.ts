import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { TrackService } from '../../../contracts/radio';
import { channels } from './radio';

/**
 * One identified (or metadata-derived) track per play on a channel: the station's track history.
 * @owner src/server/modules/tracks/tracks-repository.ts
 */
export const trackIdentifications = pgTable(
  'track_identifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    channel: text('channel')
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    artist: text('artist').notNull(),
    album: text('album'),
    artwork: text('artwork'),
    /** 0-100. */
    confidence: integer('confidence').notNull(),
    service: text('service').$type<TrackService>().notNull(),
    /** Seconds. */
    durationS: integer('duration_s'),
    releaseDate: text('release_date'),
    /** The recording's ISRC when the recogniser gave one (the music report licensing bodies ask for). */
    isrc: text('isrc'),
    label: text('label'),
    genre: text('genre'),
    bpm: integer('bpm'),
    youtubeUrl: text('youtube_url'),
    soundcloudUrl: text('soundcloud_url'),
    spotifyUrl: text('spotify_url'),
    identifiedAt: timestamp('identified_at', { withTimezone: true }).notNull().defaultNow(),
    /** Last monitor run that still heard this track (the same track is not stored twice while it plays). */
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Recent tracks per channel, newest first.
    index('track_ident_channel_time_idx').on(t.channel, t.identifiedAt.desc()),
    // History across channels, newest first.
    index('track_ident_time_idx').on(t.identifiedAt.desc()),
    // Recommendations by the same artist.
    index('track_ident_artist_idx').on(sql`lower(${t.artist})`),
  ],
);

export type TrackIdentificationRow = typeof trackIdentifications.$inferSelect;
export type NewTrackIdentificationRow = typeof trackIdentifications.$inferInsert;

import { bigint, boolean, index, integer, jsonb, numeric, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './members';

/**
 * @owner src/server/modules/mixes/mixes-repository.ts
 * @writes src/server/db/seed/seed.ts (the demo catalogue)
 * @writes bench/mix-range.ts (points a demo mix at a 100 MB file)
 * @writes bench/mix-rendition.ts (one mix with an hour of audio)
 * @writes bench/isolation.ts (a mix whose listening copy is made again while listeners are measured)
 */
export const vipMixes = pgTable('vip_mixes', {
  id: text('id').primaryKey(),
  title: text('title').notNull(),
  artist: text('artist').notNull(),
  genre: text('genre').notNull(),
  /** Seconds. */
  duration: integer('duration').notNull(),
  /** Bytes (a long mix in WAV passes 2 GB). */
  fileSize: bigint('file_size', { mode: 'number' }).notNull(),
  /** kbit/s, read from the uploaded file; null when unknown. */
  bitrateKbps: integer('bitrate_kbps'),
  artworkUrl: text('artwork_url'),
  isExclusive: boolean('is_exclusive').notNull().default(true),
  rating: numeric('rating', { precision: 2, scale: 1, mode: 'number' }).notNull().default(5),
  totalDownloads: integer('total_downloads').notNull().default(0),
  description: text('description').notNull().default(''),
  /** Where the audio is: a media storage key ('mixes/<id>.mp3') or an http(s) URL of an outside host. */
  s3Url: text('s3_url'),
  /** Hidden by an admin: absent from every member list and media route, still in the admin list. */
  hidden: boolean('hidden').notNull().default(false),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  /**
   * The listening copy (docs/decisions/0015-vip-mixes-and-media-storage.md): queued, running, ready or
   * failed. New and existing rows start queued, so the rendition job also renders every mix made before it.
   */
  renditionState: text('rendition_state', { enum: ['queued', 'running', 'ready', 'failed'] })
    .notNull()
    .default('queued'),
  renditionPercent: integer('rendition_percent').notNull().default(0),
  renditionError: text('rendition_error'),
  /** Media storage key of the listening copy ('renditions/<id>-<n>.mp3'); null until one is ready. */
  renditionKey: text('rendition_key'),
  renditionSize: bigint('rendition_size', { mode: 'number' }),
  /** Failed attempts of the current rendition (retried with backoff up to a few). */
  renditionAttempts: integer('rendition_attempts').notNull().default(0),
  /** A queued rendition waits until then (backoff after a failed attempt). */
  renditionNotBefore: timestamp('rendition_not_before', { withTimezone: true }).notNull().defaultNow(),
  /** A running rendition's owner renews this while it works; once it passes, another instance takes the mix over. */
  renditionLeaseUntil: timestamp('rendition_lease_until', { withTimezone: true }),
  /** Stream links issued, at most one per member and mix an hour (mix_plays). */
  plays: integer('plays').notNull().default(0),
});

/**
 * One VIP mix download by a member: the daily limit and the dashboard's "today's downloads" count these.
 * @owner src/server/modules/mixes/mixes-repository.ts
 */
export const mixDownloads = pgTable(
  'mix_downloads',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    mixId: text('mix_id')
      .notNull()
      .references(() => vipMixes.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('mix_downloads_time_idx').on(t.createdAt), index('mix_downloads_user_time_idx').on(t.userId, t.createdAt)],
);

/**
 * When a member's play of a mix was last counted: a stream link counts as a play at most once an hour
 * per member and mix (seeks and link renewals ask for new links).
 * @owner src/server/modules/mixes/mixes-repository.ts
 */
export const mixPlays = pgTable(
  'mix_plays',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    mixId: text('mix_id')
      .notNull()
      .references(() => vipMixes.id, { onDelete: 'cascade' }),
    countedAt: timestamp('counted_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.mixId] })],
);

/**
 * Plays counted per mix and clock hour (UTC): the history analytics rolls up into a Dublin day (whole
 * hours in any offset). mix_plays keeps only each member's last counted play, so it cannot say how
 * many plays a past day had. Counts only, nothing about who played.
 * @owner src/server/modules/mixes/mixes-repository.ts
 */
export const mixPlayHours = pgTable(
  'mix_play_hours',
  {
    mixId: text('mix_id')
      .notNull()
      .references(() => vipMixes.id, { onDelete: 'cascade' }),
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    plays: integer('plays').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.mixId, t.hour] }), index('mix_play_hours_hour_idx').on(t.hour)],
);

/**
 * Bytes of VIP mixes streamed to a member per Dublin day (MIX_STREAM_DAILY_MB): each media answer's
 * length is added as it is admitted and what it did not send is taken off when it ends
 * (modules/mixes/stream-volume.ts). The row is shared by every instance.
 * @owner src/server/modules/mixes/mixes-repository.ts
 */
export const mixStreamVolume = pgTable(
  'mix_stream_volume',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Start of the Dublin day (lib/dates.ts startOfDayDublin). */
    day: timestamp('day', { withTimezone: true }).notNull(),
    bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
    /**
     * The member's media answers in flight on any instance: answer id → admission time (epoch ms,
     * the database's clock). An entry older than the staleness bound no longer counts (its instance
     * may have stopped without ending it) and is dropped at the next admission.
     */
    answers: jsonb('answers').$type<Record<string, number>>().notNull().default({}),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day] })],
);

import { bigint, boolean, index, integer, numeric, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './members';

/**
 * @owner src/server/modules/mixes/mixes-repository.ts
 * @writes src/server/db/seed/seed.ts (the demo catalogue)
 * @writes bench/mix-range.ts (points a demo mix at a 100 MB file)
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

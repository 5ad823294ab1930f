import { sql } from 'drizzle-orm';
import { date, doublePrecision, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './members';

/**
 * One row per listening session on any mount (premium and free), read from Icecast's admin listener
 * list on the status poll. Personal data: the address is kept only as its network (IPv4 /24, IPv6 /48)
 * and country; rows are kept 30 days (the retention pass), a member's own are in their data export.
 * Sessions that ended under 5 s are dropped as reconnects.
 * @owner src/server/modules/analytics/listening-sessions-repository.ts
 */
export const listeningSessions = pgTable(
  'listening_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    channelId: text('channel_id').notNull(),
    mount: text('mount').notNull(),
    /** The Icecast whose list named the session (its origin, `host:port`) and its connection id there. */
    icecast: text('icecast').notNull(),
    clientId: text('client_id').notNull(),
    network: text('network').notNull(),
    country: text('country'),
    /** 'browser' | 'mobile_app' | 'smart_speaker' | 'media_player' | 'other' (contracts/analytics-values.ts). */
    player: text('player').notNull(),
    userAgent: text('user_agent').notNull(),
    /** The member whose premium admission opened the connection, or null. */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    /** The last listener list that named the session; an ended session ends here. */
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
    /** Null while the listener is connected. */
    endedAt: timestamp('ended_at', { withTimezone: true }),
    /** Whole seconds from start to end, set when the session ends. */
    durationS: integer('duration_s'),
  },
  (t) => [
    index('listening_sessions_open')
      .on(t.icecast, t.mount, t.clientId)
      .where(sql`${t.endedAt} is null`),
    // The rollups read a day an hour of start times at a time.
    index('listening_sessions_by_start').on(t.startedAt, t.id),
    // Sessions that ran into a day from the one before (the start is read in the index), and the retention pass.
    index('listening_sessions_by_end').on(t.endedAt, t.startedAt),
    index('listening_sessions_by_user').on(t.userId),
  ],
);

/**
 * Concurrent listeners per channel and mount, from the listening sessions: 1-minute buckets kept 7 days,
 * 15-minute buckets kept a year. No personal data.
 * @owner src/server/modules/analytics/rollups-repository.ts
 */
export const listenerCounts = pgTable(
  'listener_counts',
  {
    channelId: text('channel_id').notNull(),
    mount: text('mount').notNull(),
    /** 1 or 15. */
    resolutionMin: integer('resolution_min').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    /** Mean concurrent listeners over the bucket. */
    average: doublePrecision('average').notNull(),
    peak: integer('peak').notNull(),
  },
  (t) => [primaryKey({ columns: [t.resolutionMin, t.at, t.channelId, t.mount] })],
);

/**
 * A Dublin day's listening per channel ('all': every channel together), in total and by country and
 * player family: unique listeners (network and user agent), sessions begun, listening hours (TLH), the
 * mean session length and the peak. No personal data.
 * @owner src/server/modules/analytics/rollups-repository.ts
 */
export const listeningDays = pgTable(
  'listening_days',
  {
    day: date('day', { mode: 'string' }).notNull(),
    channelId: text('channel_id').notNull(),
    /** 'total', 'country' or 'player'. */
    dimension: text('dimension').notNull(),
    /** The country code or player family; '' for the total; '??' for an unknown country. */
    value: text('value').notNull(),
    uniques: integer('uniques').notNull(),
    sessions: integer('sessions').notNull(),
    hours: doublePrecision('hours').notNull(),
    avgSessionS: integer('avg_session_s').notNull(),
    peak: integer('peak').notNull(),
    peakAt: timestamp('peak_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.day, t.dimension, t.channelId, t.value] })],
);

/**
 * A Dublin day's member figures: 'members' counted by bucket, effective tier and platform at the day's
 * end (the dashboard's SQL); 'mrr_cents' of active pledges by platform and tier; the day's flows
 * ('new_paying', 'stopped_paying', 'came_back', 'conversions') by tier and platform. No personal data.
 * @owner src/server/modules/analytics/rollups-repository.ts
 */
export const memberDays = pgTable(
  'member_days',
  {
    day: date('day', { mode: 'string' }).notNull(),
    figure: text('figure').notNull(),
    bucket: text('bucket').notNull(),
    tier: text('tier').notNull(),
    platform: text('platform').notNull(),
    value: doublePrecision('value').notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.figure, t.bucket, t.tier, t.platform] })],
);

/**
 * A Dublin day's plays (first plays by a member) and downloads per VIP mix.
 * @owner src/server/modules/analytics/rollups-repository.ts
 */
export const mixDays = pgTable(
  'mix_days',
  {
    day: date('day', { mode: 'string' }).notNull(),
    mixId: text('mix_id').notNull(),
    plays: integer('plays').notNull(),
    downloads: integer('downloads').notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.mixId] })],
);

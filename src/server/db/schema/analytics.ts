import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
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
    index('listening_sessions_by_start').on(t.startedAt),
    index('listening_sessions_by_user').on(t.userId),
  ],
);

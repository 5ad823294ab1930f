import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './members';

/**
 * Radio channels are data: a third channel is a row, not code (docs/decisions/0005-radio-now-playing-and-tracks.md).
 * @owner src/server/modules/radio/channels-repository.ts
 * @writes src/server/db/seed/seed.ts (the demo catalogue)
 */
export const channels = pgTable('channels', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  colour: text('colour').notNull(),
  /** The premium mount: Icecast admits a listener only with a DHR stream token (URL listener auth). */
  streamUrl: text('stream_url').notNull(),
  statusUrl: text('status_url'),
  bitrateLabel: text('bitrate_label').notNull(),
  /** Lowest tier that may open the channel's page and its premium mount. */
  requiredTier: text('required_tier').notNull(),
  /** A public mount of the same programme that anyone may play (DHR1 at 128 kbps), or null. */
  freeStreamUrl: text('free_stream_url'),
  freeBitrateLabel: text('free_bitrate_label'),
  sortOrder: integer('sort_order').notNull().default(0),
});

/**
 * Members' connections to premium mounts, as Icecast reports them (listener_add admits and opens a
 * row, listener_remove closes it). They cap concurrent listening per member and show an admin who
 * listens where; the address is kept only as its network (IPv4 /24, IPv6 /48).
 * @owner src/server/modules/radio/stream-connections-repository.ts
 */
export const streamConnections = pgTable(
  'stream_connections',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    mount: text('mount').notNull(),
    /** The Icecast that holds the connection (`server:port` as it reports itself) and its connection id there. */
    icecast: text('icecast').notNull(),
    clientId: text('client_id').notNull(),
    network: text('network').notNull(),
    userAgent: text('user_agent').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    /** Null while the listener is connected. */
    endedAt: timestamp('ended_at', { withTimezone: true }),
    /** The last listener list of Icecast's that named this connection (null: none yet). */
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
    /** Listener lists in a row that did not name it; at two the row ends (a listener_remove that never came). */
    missedReads: integer('missed_reads').notNull().default(0),
  },
  (t) => [
    index('stream_connections_open_by_user')
      .on(t.userId)
      .where(sql`${t.endedAt} is null`),
    index('stream_connections_by_client').on(t.icecast, t.clientId),
    index('stream_connections_by_user_started').on(t.userId, t.startedAt),
  ],
);

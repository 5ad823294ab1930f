import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { Tier } from '../../../contracts/tiers';
import { users } from './members';

/**
 * One row per visitor of the site (docs/decisions/0018-live-monitor-shop-submissions.md): a member by
 * their id, an anonymous visitor by the random per-tab id their browser keeps in session storage.
 * Each heartbeat upserts the row, so the table holds visitors, not beats. No IP is stored: only the
 * country and city it resolved to.
 * @owner src/server/modules/visitors/visitors-repository.ts
 */
export const liveSessions = pgTable(
  'live_sessions',
  {
    /** 'm:<member id>' or 'a:<anonymous id>'. */
    id: text('id').primaryKey(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    /** A member's effective tier at their latest beat (the monitor counts VIPs without reading every member). */
    tier: text('tier').$type<Tier>(),
    currentPage: text('current_page').notNull(),
    country: text('country'),
    city: text('city'),
    /** When this visit began; a heartbeat after a long gap starts a new visit. */
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
    /** When the current page was entered (equals lastSeenAt on the beat that changed it). */
    pageChangedAt: timestamp('page_changed_at', { withTimezone: true }).notNull(),
    pageViews: integer('page_views').notNull().default(1),
  },
  (t) => [
    index('live_sessions_last_seen_idx').on(t.lastSeenAt),
    // The monitor lists members first: their few rows, newest first, without sorting every visitor.
    index('live_sessions_members_last_seen_idx')
      .on(t.lastSeenAt)
      .where(sql`${t.userId} IS NOT NULL`),
  ],
);

/**
 * Members' page views, newest first on the live monitor; pruned after a day.
 * @owner src/server/modules/visitors/visitors-repository.ts
 */
export const liveActivity = pgTable(
  'live_activity',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    action: text('action').notNull(),
    page: text('page').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('live_activity_at_idx').on(t.at)],
);

export type LiveSessionRow = typeof liveSessions.$inferSelect;

import { boolean, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { ForumPostCategory, NewsFetchReport, NewsItemType, NewsSourceKind, NewsSourceStatus } from '../../../contracts/news-values';
import { users } from './members';

/**
 * News sources are data: admins add, pause and remove them; NEWS_FEEDS seeds the list on a first
 * start (docs/decisions/0017-news-ingestion-and-forum.md). A removed source keeps its row
 * (`removedAt`) so that a restart with NEWS_FEEDS still set does not bring it back.
 * @owner src/server/modules/news/news-repository.ts
 */
export const newsSources = pgTable('news_sources', {
  id: uuid('id').primaryKey().defaultRandom(),
  kind: text('kind').$type<NewsSourceKind>().notNull(),
  name: text('name').notNull(),
  url: text('url').notNull().unique(),
  /** The news type its items get. */
  itemType: text('item_type').$type<NewsItemType>().notNull(),
  /** 0–10, added to the ranking score of its items. */
  priority: integer('priority').notNull().default(0),
  paused: boolean('paused').notNull().default(false),
  removedAt: timestamp('removed_at', { withTimezone: true }),
  /** Validators of the last 200 reply, sent back as If-None-Match / If-Modified-Since. */
  etag: text('etag'),
  lastModified: text('last_modified'),
  lastFetchedAt: timestamp('last_fetched_at', { withTimezone: true }),
  lastStatus: text('last_status').$type<NewsSourceStatus>(),
  lastError: text('last_error'),
  errorCount: integer('error_count').notNull().default(0),
  /** Backoff (docs/decisions/0024-news-from-the-real-web.md): when the source is due next; null = due now. */
  nextFetchAt: timestamp('next_fetch_at', { withTimezone: true }),
  /** A poll queued it: no other poll (or instance) takes it until then. */
  claimedUntil: timestamp('claimed_until', { withTimezone: true }),
  /** The first failure of the current run of failures; null while it works. */
  failingSince: timestamp('failing_since', { withTimezone: true }),
  /** Paused by 7 days of failures (not by an admin): the sources page offers Resume. */
  autoPausedAt: timestamp('auto_paused_at', { withTimezone: true }),
  httpStatus: integer('http_status'),
  /** What the last fetch read: encoding, entries new/kept/dropped with reasons, warnings. */
  lastReport: jsonb('last_report').$type<NewsFetchReport>(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * @owner src/server/modules/news/news-repository.ts
 * @writes src/server/db/seed/seed.ts (the demo catalogue)
 */
export const newsItems = pgTable(
  'news_items',
  {
    /** Seeded items have readable ids; fetched ones a hash of their source and guid (or link), so a re-fetch finds them again. */
    id: text('id').primaryKey(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    link: text('link').notNull(),
    imageUrl: text('image_url'),
    source: text('source').notNull(),
    pubDate: timestamp('pub_date', { withTimezone: true }).notNull(),
    type: text('type').$type<NewsItemType>().notNull(),
    /** The seeded items' own weight; fetched items take their source's priority. */
    priority: integer('priority').notNull().default(0),
    /** Null for the seeded station news. */
    sourceId: uuid('source_id').references(() => newsSources.id, { onDelete: 'cascade' }),
    /** The news panel's tab. */
    origin: text('origin').$type<NewsSourceKind>().notNull().default('rss'),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('news_items_origin_pub_idx').on(t.origin, t.pubDate.desc()), index('news_items_source_idx').on(t.sourceId, t.pubDate.desc())],
);

/**
 * Member threads of the forum; their replies are comments whose discussion is the thread's id.
 * @owner src/server/modules/news/forum-repository.ts
 */
export const forumPosts = pgTable(
  'forum_posts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Null once the author deleted their account: the thread stays, its author shown as DELETED_MEMBER_NAME. */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    category: text('category').$type<ForumPostCategory>().notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    /** 'pending' when a spam rule tripped: listed for its author only until a moderator decides. */
    status: text('status').$type<'approved' | 'pending'>().notNull().default('approved'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('forum_posts_created_idx').on(t.createdAt.desc()), index('forum_posts_user_idx').on(t.userId)],
);

export type NewsSourceRow = typeof newsSources.$inferSelect;
export type NewsItemRow = typeof newsItems.$inferSelect;
export type NewNewsItemRow = typeof newsItems.$inferInsert;
export type ForumPostRow = typeof forumPosts.$inferSelect;

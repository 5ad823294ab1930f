/**
 * News and forum values and types, free of zod so the web bundle imports them without the validator
 * (docs/decisions/0010-web-gate-and-first-load.md); the schemas built on them are in news.ts.
 */

export const NEWS_ITEM_TYPES = ['rss', 'news', 'event', 'release'] as const;
export type NewsItemType = (typeof NEWS_ITEM_TYPES)[number];

/** Which tab of the news panel an item belongs to: an RSS/Atom feed, or a web page read for its meta tags. */
export const NEWS_SOURCE_KINDS = ['rss', 'web'] as const;
export type NewsSourceKind = (typeof NEWS_SOURCE_KINDS)[number];

export const NEWS_SOURCE_STATUSES = ['ok', 'not_modified', 'failed'] as const;
export type NewsSourceStatus = (typeof NEWS_SOURCE_STATUSES)[number];

/** What a source's last fetch read (docs/decisions/0024-news-from-the-real-web.md); the sources page shows it. */
export interface NewsFetchReport {
  /** The decoder used (iconv-lite's name), null for a 304 or a failure before the body. */
  encoding: string | null;
  /** 'RSS 2.0', 'Atom 1.0', 'JSON Feed 1.1', 'web page'… */
  format: string | null;
  /** Entries the document listed. */
  found: number;
  /** Stored for the first time by this fetch. */
  added: number;
  /** Kept: new or updated. */
  kept: number;
  dropped: { reason: string; count: number }[];
  /** Recovered XML, an unknown charset… */
  warnings: string[];
  /** Why nothing was kept, in a reader's words. */
  note: string | null;
}

/** News lists show at most 25 items. */
export const NEWS_LIST_MAX = 25;
/** The ticker shows the 5 top prioritized items (plus recent comments). */
export const TICKER_NEWS_COUNT = 5;
/** Source priority bounds: the ranking adds it as is (docs/decisions/0017-news-ingestion-and-forum.md). */
export const SOURCE_PRIORITY_MAX = 10;

/** Categories a member may start a thread in; 'news' is the news panel's (its category buttons). */
export const FORUM_POST_CATEGORIES = ['discussion', 'events', 'releases'] as const;
export type ForumPostCategory = (typeof FORUM_POST_CATEGORIES)[number];
export const FORUM_FILTERS = ['all', 'news', 'events', 'releases', 'discussion'] as const;
export type ForumFilter = (typeof FORUM_FILTERS)[number];
/** The list /forum shows when no category is chosen. */
export const DEFAULT_FORUM_FILTER: ForumFilter = 'all';

export const FORUM_TITLE_MAX = 120;
export const FORUM_BODY_MAX = 5000;
export const FORUM_LIST_MAX = 50;
export const FORUM_SEARCH_MAX = 100;

export const NEWS_MESSAGES = {
  duplicateSource: 'This address is already a news source',
  sourceNotFound: 'News source not found',
  notPaused: 'This source is not paused',
} as const;

export const FORUM_MESSAGES = {
  posted: 'Thread posted!',
  pending: 'Thread submitted for moderation!',
  failed: 'Failed to post thread',
} as const;

/** The forum's stats: fixed marketing figures. */
export const FORUM_STATS = [
  { value: '2.5K', label: 'Members' },
  { value: '847', label: 'Posts Today' },
  { value: '156', label: 'Online' },
  { value: '12.8K', label: 'Total Posts' },
] as const;

/** What the news panel says when it has nothing to show. */
export const NEWS_EMPTY = {
  rss: 'No RSS items available. Try refreshing.',
  web: 'No crawled content available. Try refreshing.',
} as const;

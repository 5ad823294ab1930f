import { z } from 'zod';

/**
 * News items, news sources and forum threads (spec §2 "Forum page", "News panel", §3 "News item",
 * "Forum post", §7 "News and forum"; docs/decisions/0017-news-ingestion-and-forum.md).
 */

export const NEWS_ITEM_TYPES = ['rss', 'news', 'event', 'release'] as const;
export type NewsItemType = (typeof NEWS_ITEM_TYPES)[number];

/** Which tab of the news panel an item belongs to: an RSS/Atom feed, or a web page read for its meta tags. */
export const NEWS_SOURCE_KINDS = ['rss', 'web'] as const;
export type NewsSourceKind = (typeof NEWS_SOURCE_KINDS)[number];

/** Spec §9: news lists show at most 25 items. */
export const NEWS_LIST_MAX = 25;
/** Spec §9: the ticker shows the 5 top prioritized items (plus recent comments). */
export const TICKER_NEWS_COUNT = 5;

/** A news item / article (spec §3). Dates are ISO strings. */
export const newsItemSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  link: z.string(),
  imageUrl: z.string().nullable(),
  source: z.string(),
  pubDate: z.string(),
  type: z.enum(NEWS_ITEM_TYPES),
});
export type NewsItem = z.infer<typeof newsItemSchema>;
export const newsListSchema = z.array(newsItemSchema).max(NEWS_LIST_MAX);

/** POST /api/news/refresh: what the refetch did. */
export const newsRefreshResultSchema = z.object({
  /** Sources fetched now (sources fetched within the last minute are skipped). */
  fetched: z.number().int(),
  /** New items stored. */
  added: z.number().int(),
  failed: z.number().int(),
});
export type NewsRefreshResult = z.infer<typeof newsRefreshResultSchema>;

// ---------------------------------------------------------------- sources (admin)

export const NEWS_SOURCE_STATUSES = ['ok', 'not_modified', 'failed'] as const;
export type NewsSourceStatus = (typeof NEWS_SOURCE_STATUSES)[number];

/** Source priority bounds: the ranking adds it as is (docs/decisions/0017-news-ingestion-and-forum.md). */
export const SOURCE_PRIORITY_MAX = 10;

export const newsSourceSchema = z.object({
  id: z.string(),
  kind: z.enum(NEWS_SOURCE_KINDS),
  name: z.string(),
  url: z.string(),
  itemType: z.enum(NEWS_ITEM_TYPES),
  priority: z.number().int(),
  paused: z.boolean(),
  lastFetchedAt: z.string().nullable(),
  lastStatus: z.enum(NEWS_SOURCE_STATUSES).nullable(),
  lastError: z.string().nullable(),
  /** Failed fetches in a row (0 after a success). */
  errorCount: z.number().int(),
  itemCount: z.number().int(),
  createdAt: z.string(),
});
export type NewsSource = z.infer<typeof newsSourceSchema>;
export const newsSourceListSchema = z.array(newsSourceSchema);

const httpUrl = z
  .string()
  .trim()
  .max(2000)
  .url('Enter a full http:// or https:// address')
  .refine((u) => /^https?:\/\//i.test(u), 'Enter a full http:// or https:// address');

export const createNewsSourceSchema = z.object({
  kind: z.enum(NEWS_SOURCE_KINDS),
  name: z.string().trim().min(1, 'Name the source').max(100),
  url: httpUrl,
  itemType: z.enum(NEWS_ITEM_TYPES).optional(),
  priority: z.number().int().min(0).max(SOURCE_PRIORITY_MAX).default(0),
});
export type CreateNewsSource = z.input<typeof createNewsSourceSchema>;

export const updateNewsSourceSchema = z
  .object({
    name: z.string().trim().min(1).max(100),
    itemType: z.enum(NEWS_ITEM_TYPES),
    priority: z.number().int().min(0).max(SOURCE_PRIORITY_MAX),
    paused: z.boolean(),
  })
  .partial()
  .strict();
export type UpdateNewsSource = z.infer<typeof updateNewsSourceSchema>;

export const newsSourceParamsSchema = z.object({ id: z.string().uuid() });

export const NEWS_MESSAGES = {
  duplicateSource: 'This address is already a news source',
  sourceNotFound: 'News source not found',
} as const;

// ---------------------------------------------------------------- forum

/** Categories a member may start a thread in; 'news' is the news panel's (spec §2 category buttons). */
export const FORUM_POST_CATEGORIES = ['discussion', 'events', 'releases'] as const;
export type ForumPostCategory = (typeof FORUM_POST_CATEGORIES)[number];
export const FORUM_FILTERS = ['all', 'news', ...FORUM_POST_CATEGORIES] as const;
export type ForumFilter = (typeof FORUM_FILTERS)[number];

export const FORUM_TITLE_MAX = 120;
/** Same cap as a comment's text (spec §9: 500 characters) would cut threads short; a thread opens a discussion. */
export const FORUM_BODY_MAX = 5000;
export const FORUM_LIST_MAX = 50;

export const forumPostSchema = z.object({
  id: z.string(),
  category: z.enum(FORUM_POST_CATEGORIES),
  title: z.string(),
  body: z.string(),
  authorName: z.string(),
  authorTier: z.string(),
  createdAt: z.string(),
  /** 'approved' threads are listed for everyone; 'pending' ones only for their author until a moderator decides. */
  status: z.enum(['approved', 'pending']),
});
export type ForumPost = z.infer<typeof forumPostSchema>;
export const forumPostListSchema = z.array(forumPostSchema).max(FORUM_LIST_MAX);

export const forumPostsQuerySchema = z.object({
  category: z.enum(FORUM_FILTERS).default('all'),
  search: z.string().trim().max(100).optional(),
});

export const createForumPostSchema = z.object({
  title: z.string().trim().min(3, 'The title needs at least 3 characters').max(FORUM_TITLE_MAX, `At most ${FORUM_TITLE_MAX} characters`),
  body: z.string().trim().min(1, 'Write something to start the discussion').max(FORUM_BODY_MAX, `At most ${FORUM_BODY_MAX} characters`),
  category: z.enum(FORUM_POST_CATEGORIES),
});
export type CreateForumPost = z.infer<typeof createForumPostSchema>;

export const FORUM_MESSAGES = {
  /** Spec §3: commenting (and so starting a thread) is for DHR1, DHR2 and VIP members. */
  mayNotPost: 'Starting a thread is for DHR1, DHR2 and VIP members',
  posted: 'Thread posted!',
  pending: 'Thread submitted for moderation!',
} as const;

/** Spec §2 forum stats: fixed marketing figures. */
export const FORUM_STATS = [
  { value: '2.5K', label: 'Members' },
  { value: '847', label: 'Posts Today' },
  { value: '156', label: 'Online' },
  { value: '12.8K', label: 'Total Posts' },
] as const;

/** Spec §2 news panel empty texts. */
export const NEWS_EMPTY = {
  rss: 'No RSS items available. Try refreshing.',
  web: 'No crawled content available. Try refreshing.',
} as const;

import { z } from 'zod';
import {
  DEFAULT_FORUM_FILTER,
  FORUM_BODY_MAX,
  FORUM_FILTERS,
  FORUM_LIST_MAX,
  FORUM_POST_CATEGORIES,
  FORUM_SEARCH_MAX,
  FORUM_TITLE_MAX,
  NEWS_ITEM_TYPES,
  NEWS_LIST_MAX,
  NEWS_SOURCE_KINDS,
  NEWS_SOURCE_STATUSES,
  SOURCE_PRIORITY_MAX,
} from './news-values';
import { textField, uuidField } from './text-field';

export * from './news-values';

/**
 * News items, news sources and forum threads: the API's zod schemas
 * (docs/decisions/0017-news-ingestion-and-forum.md).
 * The web app imports the zod-free news-values.ts and these files' types only.
 */

/** A news item / article. Dates are ISO strings. */
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

/** POST /api/news/refresh: the due sources it queued; they are fetched in the background. */
export const newsRefreshResultSchema = z.object({
  queued: z.number().int(),
});
export type NewsRefreshResult = z.infer<typeof newsRefreshResultSchema>;

// ---------------------------------------------------------------- sources (admin)

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
  /** The HTTP status of the last answer (null before one, or after a network failure). */
  httpStatus: z.number().int().nullable(),
  /** When it is due next (backoff after failures); null = at the next poll. */
  nextFetchAt: z.string().nullable(),
  /** Since when it fails; null while it works. */
  failingSince: z.string().nullable(),
  /** Set when 7 days of failures paused it (an admin's pause leaves it null). */
  autoPausedAt: z.string().nullable(),
  report: z
    .object({
      encoding: z.string().nullable(),
      format: z.string().nullable(),
      found: z.number().int(),
      added: z.number().int(),
      kept: z.number().int(),
      dropped: z.array(z.object({ reason: z.string(), count: z.number().int() })),
      warnings: z.array(z.string()),
      note: z.string().nullable(),
    })
    .nullable(),
});
export type NewsSource = z.infer<typeof newsSourceSchema>;
export const newsSourceListSchema = z.array(newsSourceSchema);

const httpUrl = textField(2000)
  .trim()
  .url('Enter a full http:// or https:// address')
  .refine((u) => /^https?:\/\//i.test(u), 'Enter a full http:// or https:// address');

export const createNewsSourceSchema = z.object({
  kind: z.enum(NEWS_SOURCE_KINDS),
  name: textField(100).trim().min(1, 'Name the source'),
  url: httpUrl,
  itemType: z.enum(NEWS_ITEM_TYPES).optional(),
  priority: z.number().int().min(0).max(SOURCE_PRIORITY_MAX).default(0),
});
export type CreateNewsSource = z.input<typeof createNewsSourceSchema>;

export const updateNewsSourceSchema = z
  .object({
    name: textField(100).trim().min(1),
    itemType: z.enum(NEWS_ITEM_TYPES),
    priority: z.number().int().min(0).max(SOURCE_PRIORITY_MAX),
    paused: z.boolean(),
  })
  .partial()
  .strict();
export type UpdateNewsSource = z.infer<typeof updateNewsSourceSchema>;

export const newsSourceParamsSchema = z.object({ id: uuidField() });

// ---------------------------------------------------------------- forum

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
  category: z.enum(FORUM_FILTERS).default(DEFAULT_FORUM_FILTER),
  search: textField(FORUM_SEARCH_MAX).trim().optional(),
});

export const createForumPostSchema = z.object({
  title: textField(FORUM_TITLE_MAX, `At most ${FORUM_TITLE_MAX} characters`).trim().min(3, 'The title needs at least 3 characters'),
  body: textField(FORUM_BODY_MAX, `At most ${FORUM_BODY_MAX} characters`).trim().min(1, 'Write something to start the discussion'),
  category: z.enum(FORUM_POST_CATEGORIES),
});
export type CreateForumPost = z.infer<typeof createForumPostSchema>;

/** A thread named in a moderator's URL. */
export const forumPostIdParamsSchema = z.object({ id: uuidField() });

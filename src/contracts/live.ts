import { z } from 'zod';
import { tierSchema } from './member-schemas';
import { ANONYMOUS_ID_PATTERN, PAGE_MAX } from './live-values';
import { isPagePath } from './routes';
import { textField } from './text-field';

/** Live user monitor payloads: heartbeats in, sessions and activity out. */

/**
 * Body of POST /api/admin/heartbeat. Who is beating comes from the session cookie, never from the body:
 * a member id in it is refused with every other unknown key.
 */
export const heartbeatBodySchema = z.strictObject({
  // A page of the app by its path: no query or fragment (they may carry tokens or a visitor's words).
  page: textField(PAGE_MAX)
    .regex(/^\/[A-Za-z0-9/_-]*$/, 'A page path starts with / and has no query or fragment')
    .refine(isPagePath, 'Not a page of the site'),
  anonymousId: textField(100).regex(ANONYMOUS_ID_PATTERN).optional(),
});

export const heartbeatReplySchema = z.object({ ok: z.literal(true) });

export const liveSessionSchema = z.object({
  id: z.string(),
  username: z.string().nullable(),
  email: z.string().nullable(),
  userType: z.enum(['anonymous', 'member']),
  subscriptionTier: tierSchema.nullable(),
  isAdmin: z.boolean(),
  isOnline: z.boolean(),
  currentPage: z.string(),
  /** Seconds since the visit began. */
  sessionDuration: z.number().int().min(0),
  lastLoginAt: z.string().nullable(),
  /** ISO time of the latest heartbeat. */
  lastActivity: z.string(),
  country: z.string().nullable(),
  city: z.string().nullable(),
  pageViews: z.number().int().min(0),
});
export type LiveSession = z.infer<typeof liveSessionSchema>;

/** The most sessions GET /api/admin/live-users lists (members first); the counts cover all of them. */
export const LIVE_USERS_LIST_MAX = 300;

/** GET /api/admin/live-users: the online sessions (capped list) and the monitor's cards. */
export const liveUsersReplySchema = z.object({
  sessions: z.array(liveSessionSchema),
  onlineNow: z.number().int(),
  /** Visits seen in the last 24 hours. */
  totalSessions: z.number().int(),
  vipOnline: z.number().int(),
  anonymousOnline: z.number().int(),
  membersOnline: z.number().int(),
});
export type LiveUsersReply = z.infer<typeof liveUsersReplySchema>;

export const activitySchema = z.object({
  id: z.string(),
  email: z.string(),
  action: z.string(),
  page: z.string(),
  timestamp: z.string(),
});
export type Activity = z.infer<typeof activitySchema>;
export const RECENT_ACTIVITY_MAX = 50;
export const recentActivityReplySchema = z.array(activitySchema);

/** GET /api/admin/anonymous-stats. */
export const anonymousStatsSchema = z.object({
  totalPageViews: z.number().int(),
  anonymousOnline: z.number().int(),
  anonymousSessions: z.number().int(),
});
export type AnonymousStats = z.infer<typeof anonymousStatsSchema>;

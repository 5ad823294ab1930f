import fp from 'fastify-plugin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  anonymousStatsSchema,
  heartbeatBodySchema,
  heartbeatReplySchema,
  LIVE_USERS_LIST_MAX,
  liveUsersReplySchema,
  RECENT_ACTIVITY_MAX,
  recentActivityReplySchema,
  type Activity,
  type LiveSession,
  type LiveUsersReply,
} from '../../../contracts/live';
import { ONLINE_WINDOW_MS } from '../../../contracts/live-values';
import { effectiveTier } from '../../../contracts/tier-policy';
import type { LiveSessionRow, UserRow } from '../../db/schema';
import { access } from '../../plugins/access';
import { findMembersByIds } from '../members/members-repository';
import { openGeoTables, placeOf } from './geo';
import { anonymousKey, LIVE_RETENTION_MS, liveCounts, memberKey, onlineSessions, recentActivity } from './visitors-repository';
import type { HeartbeatBuffer } from './heartbeat-buffer';
import { VisitorsPerAddress } from './visitors-per-address';
import { clientBucket } from '../../lib/client-address';

/**
 * The live user monitor (docs/decisions/0018-live-monitor-shop-submissions.md):
 * every page's heartbeat upserts its visitor's row; the admin reads who is online. All state is in the
 * database, so the monitor sees the visitors of every instance.
 */
const routes: FastifyPluginAsyncZod<{ heartbeats: HeartbeatBuffer }> = async (app, { heartbeats }) => {
  const { db } = app.database;
  const perAddress = new VisitorsPerAddress();
  // The geo files are opened (not read) at start: a missing file fails here, not on a visitor.
  openGeoTables();
  // Beats still waiting are written before the database closes.
  app.addHook('preClose', async () => heartbeats.flush());

  app.post(
    '/api/admin/heartbeat',
    // Every visitor beats (the spec's path sits under /api/admin); members are known by their session only.
    {
      config: { access: access.public },
      schema: { summary: 'Say that this visitor is still here (live monitor)', body: heartbeatBodySchema, response: { 200: heartbeatReplySchema } },
    },
    async (req) => {
      const { page, anonymousId } = req.body;
      const user = req.user;
      // A beat with neither a session nor an anonymous id names nobody: nothing to record.
      if (!user && !anonymousId) return { ok: true as const };
      const key = user ? memberKey(user.id) : anonymousKey(anonymousId as string);
      // Beyond the address's visitors of this minute: answered like any beat, not stored.
      if (!perAddress.admits(clientBucket(req.ip), key)) return { ok: true as const };
      // The address is only looked up here, never stored.
      const place = placeOf(req.ip);
      // A member's tab that beat anonymously before signing in leaves its anonymous row.
      heartbeats.add(
        { key, userId: user?.id ?? null, tier: user ? effectiveTier(user) : null, page, ...place, now: new Date() },
        user && anonymousId ? anonymousKey(anonymousId) : undefined,
      );
      return { ok: true as const };
    },
  );

  app.get(
    '/api/admin/live-users',
    { config: { access: access.admin }, schema: { summary: 'Who is on the site now', response: { 200: liveUsersReplySchema } } },
    async (): Promise<LiveUsersReply> => {
      const now = new Date();
      const onlineSince = new Date(now.getTime() - ONLINE_WINDOW_MS);
      const [counts, rows] = await Promise.all([
        liveCounts(db, onlineSince, new Date(now.getTime() - LIVE_RETENTION_MS)),
        onlineSessions(db, onlineSince, LIVE_USERS_LIST_MAX),
      ]);
      // Names for the listed members only (at most the list's length).
      const members = new Map(
        (
          await findMembersByIds(
            db,
            rows.flatMap((r) => (r.userId ? [r.userId] : [])),
          )
        ).map((u) => [u.id, u]),
      );
      return {
        sessions: rows.map((r) => toLiveSession(r, r.userId ? members.get(r.userId) : undefined, onlineSince, now)),
        onlineNow: counts.onlineNow,
        totalSessions: counts.totalSessions,
        vipOnline: counts.vipOnline,
        anonymousOnline: counts.anonymousOnline,
        membersOnline: counts.membersOnline,
      };
    },
  );

  app.get(
    '/api/admin/recent-activity',
    { config: { access: access.admin }, schema: { summary: 'Recent activity on the site', response: { 200: recentActivityReplySchema } } },
    async (): Promise<Activity[]> => {
      const rows = await recentActivity(db, RECENT_ACTIVITY_MAX);
      const members = new Map((await findMembersByIds(db, [...new Set(rows.map((r) => r.userId))])).map((u) => [u.id, u]));
      return rows.map((r) => ({
        id: r.id,
        email: members.get(r.userId)?.email ?? 'Former member',
        action: r.action,
        page: r.page,
        timestamp: r.at.toISOString(),
      }));
    },
  );

  app.get(
    '/api/admin/anonymous-stats',
    { config: { access: access.admin }, schema: { summary: 'Visitors who are not signed in', response: { 200: anonymousStatsSchema } } },
    async () => {
      const now = Date.now();
      const c = await liveCounts(db, new Date(now - ONLINE_WINDOW_MS), new Date(now - LIVE_RETENTION_MS));
      return { totalPageViews: c.anonymousPageViews, anonymousOnline: c.anonymousOnline, anonymousSessions: c.anonymousSessions };
    },
  );
};

/** Registered with fastify-plugin so `app.heartbeats` is the app's own. */
export const visitorsRoutes = fp(routes, { name: 'visitors' });

function toLiveSession(row: LiveSessionRow, user: UserRow | undefined, onlineSince: Date, now: Date): LiveSession {
  return {
    id: row.id,
    username: user?.username ?? null,
    email: user?.email ?? null,
    userType: row.userId ? 'member' : 'anonymous',
    subscriptionTier: user ? effectiveTier(user, now) : null,
    isAdmin: user?.isAdmin ?? false,
    isOnline: row.lastSeenAt > onlineSince,
    currentPage: row.currentPage,
    sessionDuration: Math.max(0, Math.floor((row.lastSeenAt.getTime() - row.startedAt.getTime()) / 1000)),
    lastLoginAt: user?.lastLoginAt?.toISOString() ?? null,
    lastActivity: row.lastSeenAt.toISOString(),
    country: row.country,
    city: row.city,
    pageViews: row.pageViews,
  };
}

import type { CommentsCache } from './comments-cache';
import fp from 'fastify-plugin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  banCommentsSchema,
  commentBanListSchema,
  commentIdParamsSchema,
  MODERATION_MESSAGES,
  moderatedCommentListSchema,
  moderationDecisionSchema,
  moderationLogSchema,
  moderationResultSchema,
  userIdParamsSchema,
} from '../../../contracts/community';
import type { UserRow } from '../../db/schema';
import { unauthorized } from '../../lib/errors';
import { access } from '../../plugins/access';
import { moderationHistory } from './comments-repository';
import { toLogEntry } from './comment-views';
import { announceStanding } from './comment-rules';
import { banFromComments, decide, deletePermanently, liftBan, listBans, pendingQueue, reportedQueue } from './moderation-service';

const MODERATION_LOG_LENGTH = 200;

/** /forum-moderation's API: admin only; the moderator is the session's admin. */
const routes: FastifyPluginAsyncZod<{ commentsCache: CommentsCache }> = async (app, { commentsCache }) => {
  const { db } = app.database;
  const moderatorOf = (user: UserRow | null): UserRow => {
    if (!user) throw unauthorized();
    return user;
  };
  const adminOnly = { access: access.admin };

  app.get(
    '/api/admin/comments/reported',
    { config: adminOnly, schema: { summary: 'Reported comments', response: { 200: moderatedCommentListSchema } } },
    async (_req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return reportedQueue(db);
    },
  );

  app.get(
    '/api/admin/comments/pending',
    { config: adminOnly, schema: { summary: 'Comments waiting for moderation', response: { 200: moderatedCommentListSchema } } },
    async (_req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return pendingQueue(db);
    },
  );

  app.get(
    '/api/admin/comments/log',
    { config: adminOnly, schema: { summary: 'The moderation log', response: { 200: moderationLogSchema } } },
    async (_req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return (await moderationHistory(db, MODERATION_LOG_LENGTH)).map(toLogEntry);
    },
  );

  const decision = { config: adminOnly, schema: { params: commentIdParamsSchema, body: moderationDecisionSchema, response: { 200: moderationResultSchema } } };
  app.patch('/api/admin/comments/:id/approve', { ...decision, schema: { ...decision.schema, summary: 'Approve a comment' } }, async (req) => {
    const row = await decide(db, moderatorOf(req.user), req.params.id, 'approve');
    await commentsCache.changed(row.discussionId);
    return { message: MODERATION_MESSAGES.approved };
  });
  app.patch('/api/admin/comments/:id/reject', { ...decision, schema: { ...decision.schema, summary: 'Reject a comment' } }, async (req) => {
    const row = await decide(db, moderatorOf(req.user), req.params.id, 'reject');
    await commentsCache.changed(row.discussionId);
    return { message: MODERATION_MESSAGES.rejected };
  });

  app.delete(
    '/api/admin/comments/:id/permanent',
    { config: adminOnly, schema: { summary: 'Delete a comment for good', params: commentIdParamsSchema, response: { 200: moderationResultSchema } } },
    async (req) => {
      const row = await deletePermanently(db, moderatorOf(req.user), req.params.id);
      await commentsCache.changed(row.discussionId);
      return { message: MODERATION_MESSAGES.deleted };
    },
  );

  app.post(
    '/api/admin/users/:id/ban-comments',
    {
      config: adminOnly,
      schema: { summary: 'Ban a member from commenting', params: userIdParamsSchema, body: banCommentsSchema, response: { 200: moderationResultSchema } },
    },
    async (req) => {
      const target = await banFromComments(db, moderatorOf(req.user), req.params.id, req.body);
      await announceStanding(app.database, target.id);
      return { message: MODERATION_MESSAGES.banned(target.username) };
    },
  );

  app.get('/api/admin/bans', { config: adminOnly, schema: { summary: 'The comment bans', response: { 200: commentBanListSchema } } }, async (_req, reply) => {
    reply.header('cache-control', 'private, no-store');
    return listBans(db);
  });

  app.delete(
    '/api/admin/users/:id/ban-comments',
    { config: adminOnly, schema: { summary: "Lift a member's comment ban", params: userIdParamsSchema, response: { 200: moderationResultSchema } } },
    async (req) => {
      const target = await liftBan(db, moderatorOf(req.user), req.params.id);
      await announceStanding(app.database, target.id);
      return { message: MODERATION_MESSAGES.lifted(target.username) };
    },
  );
};

export const moderationRoutes = fp(routes, { name: 'comment-moderation' });

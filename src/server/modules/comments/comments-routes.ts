import fp from 'fastify-plugin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  COMMENT_MESSAGES,
  commentListSchema,
  recentCommentListSchema,
  type Comment,
  type RecentComment,
  commentIdParamsSchema,
  discussionParamsSchema,
  postCommentResponseSchema,
  postCommentSchema,
  RECENT_COMMENTS_DEFAULT,
  recentParamsSchema,
  reportCommentResponseSchema,
  reportCommentSchema,
} from '../../../contracts/community';
import { unauthorized } from '../../lib/errors';
import { enforceRateLimit, RATE_RULES } from '../../lib/rate-limit';
import { access } from '../../plugins/access';
import { type CommentsCache, LIST_CACHE_CONTROL } from './comments-cache';
import { ownPendingComments } from './comments-repository';
import { postComment, reportComment } from './comments-service';
import { toComment } from './comment-views';
import { preSerializedJson } from '../../plugins/reply-schemas';
import { sendAnswer } from '../../plugins/memory-answers';
import { clientBucket } from '../../lib/client-address';
import { hashToken } from '../../lib/tokens';

const JSON_TYPE = 'application/json; charset=utf-8';

/** Comments on a discussion, the recent feed, posting and reporting. */
const routes: FastifyPluginAsyncZod<{ cache: CommentsCache }> = async (app, { cache }) => {
  const { db } = app.database;

  // Lists already read are answered before routing (plugins/memory-answers.ts); their keys were validated then.
  const recentFromMemory = (limit: string | undefined, query: string) =>
    query === '' && limit !== undefined && /^[1-9]\d{0,2}$/.test(limit) ? cache.recent.peek(Number(limit)) : undefined;

  app.get(
    '/api/comments/recent',
    {
      config: { access: access.public, sharedAnswer: true, fromMemory: (_p, query) => recentFromMemory(String(RECENT_COMMENTS_DEFAULT), query) },
      schema: { summary: 'The latest approved comments', response: { 200: recentCommentListSchema } },
    },
    async (req, reply) => sendAnswer<RecentComment[]>(req, reply, await cache.recent.get(RECENT_COMMENTS_DEFAULT)),
  );

  app.get(
    '/api/comments/recent/:limit',
    {
      config: { access: access.public, sharedAnswer: true, fromMemory: (params, query) => recentFromMemory(params.limit, query) },
      schema: { summary: 'The latest approved comments, up to a limit', params: recentParamsSchema, response: { 200: recentCommentListSchema } },
    },
    async (req, reply) => sendAnswer<RecentComment[]>(req, reply, await cache.recent.get(req.params.limit)),
  );

  app.get(
    '/api/comments/:articleId',
    // Public, but a signed-in author also sees their own comments waiting for a moderator (so a request
    // with a session never takes the memory path).
    {
      config: {
        access: access.public,
        fromMemory: (params, query) => (query === '' && params.articleId ? cache.lists.peek(params.articleId)?.answer : undefined),
      },
      schema: { summary: "An article's comments", params: discussionParamsSchema, response: { 200: commentListSchema } },
    },
    async (req, reply) => {
      const { articleId } = req.params;
      const list = await cache.lists.get(articleId);
      reply.header('cache-control', LIST_CACHE_CONTROL).type(JSON_TYPE);
      if (!req.user) return reply.send(preSerializedJson<Comment[]>(list.body));
      const pending = await ownPendingComments(db, articleId, req.user.id);
      return reply.send(preSerializedJson<Comment[]>(pending.length ? JSON.stringify([...pending.map(toComment), ...list.items]) : list.body));
    },
  );

  app.post(
    '/api/comments',
    { config: { access: access.member }, schema: { summary: 'Comment on an article', body: postCommentSchema, response: { 201: postCommentResponseSchema } } },
    async (req, reply) => {
      await enforceRateLimit(db, req, RATE_RULES.commentPost);
      const { row, message } = await postComment(db, req.user, req.body);
      if (row.status === 'approved') await cache.changed(row.discussionId);
      return reply.status(201).send({ comment: toComment(row), message });
    },
  );

  app.post(
    '/api/comments/:id/report',
    {
      config: { access: access.member },
      schema: { summary: 'Report a comment', params: commentIdParamsSchema, body: reportCommentSchema, response: { 200: reportCommentResponseSchema } },
    },
    async (req) => {
      if (!req.user) throw unauthorized();
      await enforceRateLimit(db, req, RATE_RULES.commentReport);
      // The network is stored hashed: enough to tell one person's accounts apart, no address kept.
      const comment = await reportComment(db, req.user, req.params.id, req.body.reason, hashToken(clientBucket(req.ip)));
      await cache.changed(comment.discussionId);
      return { message: COMMENT_MESSAGES.reported };
    },
  );
};

export const commentsRoutes = fp(routes, { name: 'comments' });

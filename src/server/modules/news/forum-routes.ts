import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  createForumPostSchema,
  DEFAULT_FORUM_FILTER,
  FORUM_LIST_MAX,
  forumPostIdParamsSchema,
  forumPostListSchema,
  forumPostSchema,
  forumPostsQuerySchema,
  type ForumFilter,
  type ForumPost,
} from '../../../contracts/news';
import type { UserRow } from '../../db/schema';
import { CachedRead, ChangeNotices } from '../../lib/cached-read';
import { unauthorized } from '../../lib/errors';
import { MINUTE_MS } from '../../../contracts/time';
import { enforceRateLimit, RATE_RULES } from '../../lib/rate-limit';
import { access } from '../../plugins/access';
import type { MemoryAnswer } from '../../plugins/memory-answers';
import { listForumPosts, type ForumListFilter } from './forum-repository';
import { approveThread, createThread, removeThread, toForumPost } from './forum-service';
import { noContentReply, preSerializedJson } from '../../plugins/reply-schemas';

/** NOTIFY channel: a thread was posted or removed; every instance drops its cached lists. */
export const FORUM_CHANNEL = 'forum_changed';
const CACHE_TTL_MS = 5 * MINUTE_MS;
const PUBLIC_CACHE_CONTROL = 'public, no-cache';

interface CachedList {
  posts: ForumPost[];
  /** Serialised once: most readers get it as is. */
  body: string;
  /** What a visitor without a session is answered, before routing (plugins/memory-answers.ts). */
  answer: MemoryAnswer;
}

/** GET and POST /api/forum/posts: member threads, by category and search. */
export const forumRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const changes = new ChangeNotices(app, FORUM_CHANNEL);
  const listOf = (posts: ForumPost[]): CachedList => {
    const body = JSON.stringify(posts);
    return { posts, body, answer: { body, cacheControl: PUBLIC_CACHE_CONTROL } };
  };
  const load = async (filter: ForumListFilter) => listOf((await listForumPosts(db, filter, FORUM_LIST_MAX)).map(toForumPost));
  // The unfiltered lists per category are what every visitor of /forum reads: kept in memory.
  const lists = new CachedRead<ForumFilter, CachedList>({ load: (category) => load({ category }), maxAgeMs: CACHE_TTL_MS, droppedBy: [changes] });

  // The reply is built from toForumPost rows and serialised here (once per list for most readers); the schema documents it.
  // Every visitor of /forum without a session reads the unfiltered list: answered from memory.
  const fromMemory = (_params: unknown, query: string) => (query === '' ? lists.peek(DEFAULT_FORUM_FILTER)?.answer : undefined);
  app.get(
    '/api/forum/posts',
    {
      config: { access: access.public, fromMemory },
      schema: { summary: "The forum's posts", querystring: forumPostsQuerySchema, response: { 200: forumPostListSchema } },
    },
    async (req, reply) => {
      const { category, search } = req.query;
      const list = search ? await load({ category, search }) : await lists.get(category);
      // A member also sees their own threads awaiting a moderator; an admin sees every held thread, to decide.
      const pendingOf = req.user?.isAdmin ? 'all' : req.user?.id;
      const own = pendingOf ? (await listForumPosts(db, { category, search, pendingOf }, FORUM_LIST_MAX)).map(toForumPost) : [];
      reply.header('cache-control', req.user ? 'private, no-store' : PUBLIC_CACHE_CONTROL);
      const body = own.length === 0 ? list.body : JSON.stringify([...own, ...list.posts].slice(0, FORUM_LIST_MAX));
      return reply.type('application/json; charset=utf-8').send(preSerializedJson<ForumPost[]>(body));
    },
  );

  app.post(
    '/api/forum/posts',
    { config: { access: access.member }, schema: { summary: 'Write a forum post', body: createForumPostSchema, response: { 201: forumPostSchema } } },
    async (req, reply) => {
      await enforceRateLimit(db, req, RATE_RULES.forumPost);
      const post = await createThread(db, req.user, req.body);
      await announceChange();
      return reply.status(201).send(post);
    },
  );

  // Moderation of threads the spam rule held (or any thread): the moderator is the session's admin.
  const moderatorOf = (user: UserRow | null): UserRow => {
    if (!user) throw unauthorized();
    return user;
  };
  app.patch(
    '/api/admin/forum/posts/:id/approve',
    { config: { access: access.admin }, schema: { summary: 'Approve a forum post', params: forumPostIdParamsSchema, response: { 200: forumPostSchema } } },
    async (req) => {
      const post = await approveThread(db, moderatorOf(req.user), req.params.id);
      await announceChange();
      return post;
    },
  );
  app.delete(
    '/api/admin/forum/posts/:id',
    { config: { access: access.admin }, schema: { summary: 'Delete a forum post', params: forumPostIdParamsSchema, response: { 204: noContentReply } } },
    async (req, reply) => {
      await removeThread(db, moderatorOf(req.user), req.params.id);
      await announceChange();
      return reply.status(204).send();
    },
  );

  function announceChange() {
    return changes.announce();
  }
};

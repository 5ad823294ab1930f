import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { createForumPostSchema, FORUM_LIST_MAX, forumPostListSchema, forumPostSchema, forumPostsQuerySchema, type ForumPost } from '../../../contracts/news';
import { MINUTE_MS } from '../../../contracts/time';
import { enforceRateLimit, RATE_RULES } from '../../lib/rate-limit';
import { access } from '../../plugins/access';
import { listForumPosts } from './forum-repository';
import { createThread, toForumPost } from './forum-service';

/** NOTIFY channel: a thread was posted or removed; every instance drops its cached lists. */
export const FORUM_CHANNEL = 'forum_changed';
const CACHE_TTL_MS = 5 * MINUTE_MS;

/** GET and POST /api/forum/posts (spec §7): member threads, by category and search. */
export const forumRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  // The unfiltered lists per category are what every visitor of /forum reads: kept in memory.
  const cache = new Map<string, { at: number; posts: ForumPost[] }>();
  const dropCaches = () => cache.clear();

  let unlisten: (() => Promise<void>) | undefined;
  app.addHook('onReady', async () => {
    unlisten = await app.database.listen(FORUM_CHANNEL, dropCaches);
  });
  app.addHook('preClose', async () => {
    await unlisten?.();
  });

  app.get('/api/forum/posts', { config: { access: access.public }, schema: { querystring: forumPostsQuerySchema, response: { 200: forumPostListSchema } } }, async (req, reply) => {
    const { category, search } = req.query;
    let approved: ForumPost[];
    const hit = search ? undefined : cache.get(category);
    if (hit && Date.now() - hit.at < CACHE_TTL_MS) approved = hit.posts;
    else {
      approved = (await listForumPosts(db, { category, search }, FORUM_LIST_MAX)).map(toForumPost);
      if (!search) cache.set(category, { at: Date.now(), posts: approved });
    }
    // A member also sees their own threads awaiting a moderator.
    const own = req.user ? (await listForumPosts(db, { category, search, pendingOf: req.user.id }, FORUM_LIST_MAX)).map(toForumPost) : [];
    reply.header('cache-control', req.user ? 'private, no-store' : 'public, no-cache');
    return [...own, ...approved].slice(0, FORUM_LIST_MAX);
  });

  app.post('/api/forum/posts', { config: { access: access.member }, schema: { body: createForumPostSchema, response: { 201: forumPostSchema } } }, async (req, reply) => {
    await enforceRateLimit(db, req, RATE_RULES.forumPost);
    const post = await createThread(db, req.user, req.body);
    dropCaches();
    await app.database.notify(FORUM_CHANNEL, 'changed').catch((err: unknown) => app.log.warn({ err }, 'could not announce a forum change'));
    return reply.status(201).send(post);
  });
};

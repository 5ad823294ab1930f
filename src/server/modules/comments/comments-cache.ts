import type { FastifyInstance } from 'fastify';
import type { Comment } from '../../../contracts/community';
import { CachedRead, ChangeNotices } from '../../lib/cached-read';
import type { MemoryAnswer } from '../../plugins/memory-answers';
import { recentComments, visibleComments } from './comments-repository';
import { toComment, toRecentComment } from './comment-views';

/** NOTIFY channel telling every instance a discussion's comments changed; the payload is its id. */
export const COMMENTS_CHANNEL = 'comments_changed';
/** Discussions whose list is kept in memory; the oldest is dropped beyond this. */
const MAX_CACHED_DISCUSSIONS = 1000;

/** Comment lists may change any moment: clients revalidate every read. */
export const LIST_CACHE_CONTROL = 'no-cache';

export interface CachedList {
  /** The serialised public list, sent as is. */
  body: string;
  items: Comment[];
  /** The list as plugins/memory-answers.ts sends it before routing. */
  answer: MemoryAnswer;
}

/**
 * The public comment reads served from memory (docs/conventions.md "Public reads: caching and
 * NOTIFY"): each discussion's list and the recent feeds, dropped when a comment changes here or, through
 * NOTIFY, on any other instance.
 */
export class CommentsCache {
  /** Each discussion's approved comments, by discussion id. */
  readonly lists: CachedRead<string, CachedList>;
  /** The recent feed, by its length. */
  readonly recent: CachedRead<number, MemoryAnswer>;
  private readonly notices: ChangeNotices;

  constructor(app: FastifyInstance) {
    const { db } = app.database;
    this.lists = new CachedRead({
      load: async (discussionId) => {
        const items = (await visibleComments(db, discussionId)).map(toComment);
        const body = JSON.stringify(items);
        return { body, items, answer: { body, cacheControl: LIST_CACHE_CONTROL } };
      },
      maxKeys: MAX_CACHED_DISCUSSIONS,
    });
    this.recent = new CachedRead({
      load: async (limit) => ({ body: JSON.stringify((await recentComments(db, limit)).map(toRecentComment)), cacheControl: LIST_CACHE_CONTROL }),
    });
    // A change drops its discussion's list and every recent feed (any of them may show it).
    this.notices = new ChangeNotices(app, COMMENTS_CHANNEL).onChange((discussionId) => {
      this.lists.drop(discussionId);
      this.recent.drop();
    });
  }

  /** A comment of `discussionId` changed: drop it here now and tell the other instances. */
  changed(discussionId: string): Promise<void> {
    return this.notices.announce(discussionId);
  }
}

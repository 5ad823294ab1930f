import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { ChangeNotices } from '../../lib/cached-read';
import { COMMENTS_CHANNEL } from '../comments/comments-cache';
import { commentCountsSince } from '../comments/comments-repository';
import { createNewsPoller, type NewsPoller } from './news-poller';

/** NOTIFY channel: the news changed (a poll stored items, an admin changed a source, a comment moved the ranking). */
export const NEWS_CHANNEL = 'news_changed';
/** Recent comments per discussion id (news item id), for the ranking; the comments module provides it. */
export type CommentActivity = (db: Db, itemIds: string[], since: Date) => Promise<Map<string, number>>;

/** The news poller and the public lists' change notices, made once by the composition root (modules/index.ts). */
export class News {
  readonly poller: NewsPoller;
  /** The news changed: a poll stored items or an admin changed a source (this instance and the others). */
  readonly changes: ChangeNotices;
  /** A comment anywhere may lift an item: the ranking is computed again on the next read. */
  readonly commentChanges: ChangeNotices;
  /** Comment activity moves the ranking (docs/decisions/0017); tests may plug in their own counts. */
  commentActivity: CommentActivity = commentCountsSince;
  /** The cached public lists, dropped when the ranking's inputs change. */
  readonly lists: { drop(): void }[] = [];

  constructor(app: FastifyInstance) {
    // A fetch that stored items drops the cached lists here and on the other instances.
    this.poller = createNewsPoller({ database: app.database, config: app.config, log: app.log.child({ module: 'news' }), onStored: () => void this.changed() });
    this.changes = new ChangeNotices(app, NEWS_CHANNEL);
    this.commentChanges = new ChangeNotices(app, COMMENTS_CHANNEL);
  }

  /** Drops this instance's cached lists and tells the other instances to drop theirs. */
  changed(): Promise<void> {
    return this.changes.announce();
  }

  /** Plugs the comment counts into the ranking. */
  setCommentActivity(fn: CommentActivity): void {
    this.commentActivity = fn;
    for (const list of this.lists) list.drop();
  }
}

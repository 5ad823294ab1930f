import type { FastifyBaseLogger } from 'fastify';
import type { Comment } from '../../../contracts/community';
import type { Database } from '../../db/client';
import type { MemoryAnswer } from '../../plugins/memory-answers';

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
 * NOTIFY, on any other instance. A read that started before a change never stores its stale answer.
 */
export class CommentsCache {
  private lists = new Map<string, CachedList>();
  private recent = new Map<number, MemoryAnswer>();
  private version = 0;

  constructor(
    private readonly database: Database,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Drops what `discussionId` changed (every recent feed too). */
  drop(discussionId: string): void {
    this.version += 1;
    this.lists.delete(discussionId);
    this.recent.clear();
  }

  /** A comment of `discussionId` changed: drop it here now and tell the other instances. */
  async changed(discussionId: string): Promise<void> {
    this.drop(discussionId);
    await this.database.notify(COMMENTS_CHANNEL, discussionId).catch((err: unknown) => this.log.warn({ err }, 'could not announce a comments change'));
  }

  /** The list of `discussionId` if it is in memory now (plugins/memory-answers.ts asks before routing). */
  peekList(discussionId: string): CachedList | undefined {
    return this.lists.get(discussionId);
  }

  /** The recent feed of `limit` comments if it is in memory now. */
  peekRecent(limit: number): MemoryAnswer | undefined {
    return this.recent.get(limit);
  }

  async list(discussionId: string, load: () => Promise<Comment[]>): Promise<CachedList> {
    const hit = this.lists.get(discussionId);
    if (hit) return hit;
    const version = this.version;
    const items = await load();
    const body = JSON.stringify(items);
    const entry = { body, items, answer: { body, cacheControl: LIST_CACHE_CONTROL } };
    if (version === this.version) {
      if (this.lists.size >= MAX_CACHED_DISCUSSIONS) {
        const oldest = this.lists.keys().next().value;
        if (oldest !== undefined) this.lists.delete(oldest);
      }
      this.lists.set(discussionId, entry);
    }
    return entry;
  }

  async recentFeed(limit: number, load: () => Promise<unknown[]>): Promise<string> {
    const hit = this.recent.get(limit);
    if (hit) return hit.body;
    const version = this.version;
    const body = JSON.stringify(await load());
    if (version === this.version) this.recent.set(limit, { body, cacheControl: LIST_CACHE_CONTROL });
    return body;
  }
}

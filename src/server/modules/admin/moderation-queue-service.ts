import { HOLD_REASONS, MODERATION_QUEUE_MAX, type ModerationQueue, type ModerationQueueItem } from '../../../contracts/community';
import type { Db } from '../../db/client';
import { hasLink } from '../../lib/link-detector';
import { heldCommentCounts, heldComments } from '../comments/comments-repository';
import { countHeldThreads, listForumPosts } from '../news/forum-repository';
import { countHeldMessages, heldMessages } from '../chat/chat-repository';
import { listChannels } from '../radio/channels-repository';
import { FREE_CHAT, FREE_CHAT_NAME } from '../../../contracts/chat-values';

/**
 * The one moderation queue: held comments (waiting for a moderator, or reported and not answered),
 * forum threads the spam rule held and chat messages the link rule held, oldest first, each with why
 * it is held. Decisions go through the comments', the forum's and the chat's own moderation routes.
 */

const EXCERPT_LENGTH = 160;

const excerpt = (text: string) => (text.length > EXCERPT_LENGTH ? `${text.slice(0, EXCERPT_LENGTH - 1)}…` : text);

/** A held item's reason: reports first (they are why a published item came back), else the rule that held it. */
const holdReason = (text: string, reports: number) => (reports > 0 ? HOLD_REASONS.reported(reports) : hasLink(text) ? HOLD_REASONS.link : HOLD_REASONS.spam);

export async function moderationQueue(db: Db): Promise<ModerationQueue> {
  const third = Math.floor(MODERATION_QUEUE_MAX / 3);
  const [comments, threads, chat, commentCounts, threadCount, chatCount, channels] = await Promise.all([
    heldComments(db, third),
    listForumPosts(db, { category: 'all', pendingOf: 'all' }, third),
    heldMessages(db, third),
    heldCommentCounts(db),
    countHeldThreads(db),
    countHeldMessages(db),
    listChannels(db),
  ]);
  const channelName = new Map<string, string>([[FREE_CHAT, FREE_CHAT_NAME], ...channels.map((c): [string, string] => [c.id, c.name])]);
  const items: ModerationQueueItem[] = [
    ...comments.map((c) => ({
      kind: 'comment' as const,
      id: c.id,
      excerpt: excerpt(c.content),
      author: c.authorName,
      authorId: c.userId,
      reason: holdReason(c.content, c.openReports),
      reported: c.openReports > 0,
      createdAt: c.createdAt.toISOString(),
    })),
    ...threads.map((t) => ({
      kind: 'thread' as const,
      id: t.id,
      title: t.title,
      author: t.authorName,
      authorId: t.userId,
      reason: holdReason(`${t.title}\n${t.body}`, 0),
      reported: false,
      createdAt: t.createdAt.toISOString(),
    })),
    ...chat.map((m) => ({
      kind: 'chat' as const,
      id: m.id,
      channel: m.channel,
      channelName: channelName.get(m.channel) ?? m.channel,
      excerpt: excerpt(m.text),
      author: m.authorName,
      authorId: m.userId,
      reason: holdReason(m.text, 0),
      reported: false,
      createdAt: m.createdAt.toISOString(),
    })),
  ].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  return { items, counts: { comments: commentCounts.held, threads: threadCount, chat: chatCount, reported: commentCounts.reported } };
}

/** Held comments, threads and chat messages together: the dashboard's "moderation pending". */
export async function moderationPendingCount(db: Db): Promise<number> {
  const [comments, threads, chat] = await Promise.all([heldCommentCounts(db), countHeldThreads(db), countHeldMessages(db)]);
  return comments.held + threads + chat;
}

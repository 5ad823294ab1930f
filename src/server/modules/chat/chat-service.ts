import { CHAT_HISTORY, CHAT_MAX_LENGTH, CHAT_MESSAGES, CHAT_RETENTION_DAYS, CHAT_SLOW_MODE_MS, FREE_CHAT, type ChatMuteBody } from '../../../contracts/chat';
import { effectiveTier, hasChatPriority, mayChat, meetsTier } from '../../../contracts/tier-policy';
import { DAY_MS, MINUTE_MS, RADIO_LOCALE, RADIO_TIME_ZONE, SECOND_MS } from '../../../contracts/time';
import { parseTier } from '../../../contracts/tiers';
import type { Db } from '../../db/client';
import type { UserRow } from '../../db/schema';
import { AppError, badRequest, forbidden, notFound, unauthorized } from '../../lib/errors';
import { activeBan } from '../comments/comment-rules';
import { hasLink } from '../../lib/link-detector';
import { findMemberById } from '../members/members-repository';
import { listChannels } from '../radio/channels-repository';
import {
  deleteMessage,
  deleteMessagesBefore,
  findChatMember,
  postWithSlot,
  lastMessageOf,
  recentMessages,
  setMute,
  showMessage,
  type ChatMessageRow,
} from './chat-repository';

/**
 * The channel chats (docs/decisions/0031-channel-chat.md): who reads and posts where, the
 * text rules, link hold, slow mode, mutes and the comments' ban. No Fastify types; the plugin
 * publishes what these functions return.
 */

const untilFormat = new Intl.DateTimeFormat(RADIO_LOCALE, { timeZone: RADIO_TIME_ZONE, dateStyle: 'medium', timeStyle: 'short' });
const formatUntil = (at: Date) => untilFormat.format(at);

/** Whether `user` may read the chat `channel`; throws 404 for a chat that does not exist. */
async function mayRead(db: Db, channel: string, user: UserRow | null, now: Date): Promise<boolean> {
  if (channel === FREE_CHAT) return true;
  const row = (await listChannels(db)).find((c) => c.id === channel);
  if (!row) throw notFound(CHAT_MESSAGES.unknownChat, 'unknown_chat');
  // A premium channel's chat is read by those who may hear the channel.
  return user !== null && meetsTier(user, parseTier(row.requiredTier) ?? 'vip', now);
}

/** The chats `user` may read: the free one, and every channel whose tier they meet. */
export async function readableChats(db: Db, user: UserRow | null, now: Date = new Date()): Promise<string[]> {
  if (!user) return [FREE_CHAT];
  const channels = await listChannels(db);
  return [FREE_CHAT, ...channels.filter((c) => meetsTier(user, parseTier(c.requiredTier) ?? 'vip', now)).map((c) => c.id)];
}

/** The refusal for a chat `user` may not read (an unknown chat was refused by mayRead already). */
function unreadable(user: UserRow | null): AppError {
  return user ? forbidden(CHAT_MESSAGES.noAccess, 'chat_no_access') : unauthorized(CHAT_MESSAGES.signIn, 'chat_sign_in_required');
}

async function assertReadable(db: Db, channel: string, user: UserRow | null, now: Date): Promise<void> {
  if (!(await mayRead(db, channel, user, now))) throw unreadable(user);
}

const mayPost = (user: UserRow | null, now: Date): user is UserRow => user !== null && (user.isAdmin || mayChat(user, now));

/** The last CHAT_HISTORY messages, oldest first, with what the reader may do. */
export async function chatHistory(db: Db, channel: string, user: UserRow | null, now: Date = new Date()) {
  const moderator = user?.isAdmin === true;
  // One round of reads, as for a post; the messages are read only for a reader who may see them.
  const [, state, banRow] = await Promise.all([
    assertReadable(db, channel, user, now),
    user ? findChatMember(db, user.id) : null,
    // Told before they type, not when they send (postChatMessage refuses the same ban).
    user ? activeBan(db, user, now) : null,
  ]);
  const rows = await recentMessages(db, channel, CHAT_HISTORY, user?.id ?? null, moderator);
  const mutedUntil = state?.mutedUntil && state.mutedUntil > now ? state.mutedUntil.toISOString() : null;
  const ban = banRow ? { reason: banRow.reason, until: banRow.expiresAt?.toISOString() ?? null } : null;
  return { channel, rows: rows.reverse(), canPost: mayPost(user, now), canModerate: moderator, mutedUntil, ban };
}

/** The text as it will be shown: trimmed, not empty, at most CHAT_MAX_LENGTH characters. */
export function chatText(raw: string): string {
  const text = raw.trim();
  if (!text) throw badRequest(CHAT_MESSAGES.empty, 'message_empty');
  if ([...text].length > CHAT_MAX_LENGTH) throw badRequest(CHAT_MESSAGES.tooLong, 'message_too_long');
  return text;
}

const normalise = (s: string) => s.trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * Posts as the signed-in member: name, tier and badge from the session. Returns the stored row.
 * `admitted` is the caller's own check (the rate limit): it runs beside the reads, and nothing is
 * written unless it passes.
 */
export async function postChatMessage(
  db: Db,
  post: { channel: string; user: UserRow | null; raw: string; admitted?: Promise<void> },
  now: Date = new Date(),
): Promise<ChatMessageRow> {
  const { channel, user, raw } = post;
  // The reads a post needs do not depend on one another: one round of them, not one after another
  // (each is a round trip a listener waits for, and on PGlite a turn behind any background unit).
  const [, readable, ban, state, previous] = await Promise.all([
    post.admitted,
    mayRead(db, channel, user, now),
    user ? activeBan(db, user, now) : null,
    user ? findChatMember(db, user.id) : null,
    user && !user.isAdmin ? lastMessageOf(db, user.id) : null,
  ]);
  if (!readable) throw unreadable(user);
  if (!user) throw unauthorized(CHAT_MESSAGES.signIn, 'chat_sign_in_required');
  // The comments' ban is the chat's ban too.
  if (ban) {
    const until = ban.expiresAt ? ` The ban lasts until ${formatUntil(ban.expiresAt)}.` : '';
    throw new AppError(403, 'banned', `${CHAT_MESSAGES.banned} Reason: ${ban.reason}.${until}`);
  }
  if (!mayPost(user, now)) throw forbidden(CHAT_MESSAGES.tierRequired, 'chat_tier_required');
  if (state?.mutedUntil && state.mutedUntil > now) {
    const until = state.mutedUntil.toISOString();
    throw new AppError(403, 'muted', CHAT_MESSAGES.muted(formatUntil(state.mutedUntil)), {}, { until });
  }
  const text = chatText(raw);
  // The comments' link rule, and a repeat of the member's last message, hold it for a moderator.
  const held = !user.isAdmin && (hasLink(text) || (previous !== null && normalise(previous.text) === normalise(text)));
  const priority = user.isAdmin || hasChatPriority(user, now);
  const message = {
    channel,
    userId: user.id,
    authorName: user.username,
    authorTier: effectiveTier(user, now),
    supporter: !user.isAdmin && hasChatPriority(user, now),
    authorIsAdmin: user.isAdmin,
    text,
    status: held ? ('held' as const) : ('shown' as const),
    createdAt: now,
  };
  const row = await postWithSlot(db, message, priority ? null : new Date(now.getTime() - CHAT_SLOW_MODE_MS));
  if (row) return row;
  // Refused by slow mode: the wait counts from the post that won.
  const last = (await findChatMember(db, user.id))?.lastPostAt ?? now;
  const waitS = Math.max(1, Math.ceil((last.getTime() + CHAT_SLOW_MODE_MS - now.getTime()) / SECOND_MS));
  throw new AppError(429, 'slow_mode', CHAT_MESSAGES.slowMode(waitS), { 'retry-after': String(waitS) });
}

export async function deleteChatMessage(db: Db, id: string): Promise<ChatMessageRow> {
  const row = await deleteMessage(db, id);
  if (!row) throw notFound(CHAT_MESSAGES.notFound, 'message_not_found');
  return row;
}

/** Shows a held message to everyone. */
export async function approveChatMessage(db: Db, id: string): Promise<ChatMessageRow> {
  const row = await showMessage(db, id);
  if (!row) throw notFound(CHAT_MESSAGES.notFound, 'message_not_found');
  return row;
}

/** Mutes a member in every chat for `minutes`; a new mute replaces the old. */
export async function muteMember(db: Db, moderator: UserRow, body: ChatMuteBody, now: Date = new Date()) {
  if (body.userId === moderator.id) throw badRequest(CHAT_MESSAGES.muteSelf, 'mute_self');
  const target = await findMemberById(db, body.userId);
  if (!target) throw notFound(CHAT_MESSAGES.memberNotFound, 'member_not_found');
  const until = new Date(now.getTime() + body.minutes * MINUTE_MS);
  await setMute(db, target.id, until, moderator.id);
  return { userId: target.id, until: until.toISOString(), message: CHAT_MESSAGES.mutedMember(target.username, formatUntil(until)) };
}

/** The daily retention run: messages older than CHAT_RETENTION_DAYS go. */
export async function pruneChat(db: Db, now: Date = new Date()): Promise<number> {
  return deleteMessagesBefore(db, new Date(now.getTime() - CHAT_RETENTION_DAYS * DAY_MS));
}

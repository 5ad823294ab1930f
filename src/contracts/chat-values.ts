/**
 * Chat values, words and types without zod, so the chat panel imports them without the validator.
 * The schemas are in chat.ts, which re-exports all of this (docs/decisions/0031-channel-chat.md).
 */
import { lowestTierWith, tierLabel, tierList, tiersWith } from './tier-table';
import { SECOND_MS } from './time';
import type { Tier } from './tiers';

/** The chat beside the free stream (the home player and /player): everyone reads it. */
export const FREE_CHAT = 'free';
/** How the moderation queue names the free chat. */
export const FREE_CHAT_NAME = 'Free stream chat';
/** The SSE event that carries chat messages and deletions (with the chat's channel in the payload). */
export const CHAT_EVENT = 'chat';
/** Longest message, after trimming. */
export const CHAT_MAX_LENGTH = 300;
/** Messages loaded when the chat opens. */
export const CHAT_HISTORY = 100;
/** Messages are kept this many days; a daily job deletes older ones. */
export const CHAT_RETENTION_DAYS = 30;
/** Slow mode: one message per this many milliseconds, for members without the supporter badge. */
export const CHAT_SLOW_MODE_MS = 10 * SECOND_MS;
/** Longest mute a moderator may give, in minutes (one week). */
export const CHAT_MUTE_MAX_MINUTES = 7 * 24 * 60;

/** The tiers whose members post (the tier table's chatSignIn). */
const CHAT_TIERS = tierList(
  tiersWith((row) => row.chatSignIn),
  'or',
);

/** The chat texts members see, word for word. */
export const CHAT_MESSAGES = {
  signIn: 'Sign in to chat',
  upgrade: `Chat is for ${tierLabel(lowestTierWith((row) => row.chatSignIn))} members and up — upgrade`,
  tierRequired: `Chat is for ${CHAT_TIERS} members. Please upgrade to post.`,
  noAccess: 'This chat is for members who can hear the channel.',
  unknownChat: 'This chat does not exist.',
  empty: 'Message cannot be empty',
  tooLong: `Message must be ${CHAT_MAX_LENGTH} characters or fewer`,
  held: 'Your message has a link or repeats your last one, so it waits for a moderator.',
  banned: 'You are banned from commenting and chat.',
  muted: (until: string) => `You are muted in chat until ${until}.`,
  slowMode: (seconds: number) => `Slow mode: you can send another message in ${seconds} s.`,
  notFound: 'Message not found',
  deleted: 'Message deleted',
  approved: 'Message approved',
  mutedMember: (name: string, until: string) => `${name} is muted in chat until ${until}.`,
  muteSelf: 'You cannot mute yourself.',
  memberNotFound: 'Member not found',
  emptyList: 'No messages yet. Say hello!',
} as const;

/** A chat message as every reader sees it. */
export interface ChatMessageView {
  id: string;
  channel: string;
  userId: string | null;
  authorName: string;
  authorTier: Tier;
  /** The author's tier skips slow mode: the supporter badge. */
  supporter: boolean;
  authorIsAdmin: boolean;
  text: string;
  /** Waiting for a moderator: shown only to its author and moderators. */
  held: boolean;
  createdAt: string;
}

/**
 * The `chat` SSE event's data. `standing` goes only to the member concerned, when a moderator mutes,
 * bans or lifts a ban: their open chats read their state again and say it before they type.
 */
export type ChatEvent =
  { channel: string; kind: 'message'; message: ChatMessageView } | { channel: string; kind: 'delete'; id: string } | { kind: 'standing'; channel?: undefined };

import { z } from 'zod';
import { CHAT_HISTORY, CHAT_MAX_LENGTH, CHAT_MESSAGES, CHAT_MUTE_MAX_MINUTES, type ChatMessageView } from './chat-values';
import { textField, uuidField } from './text-field';
import { TIERS } from './tiers';

/** The channel chats: schemas of the chat routes (docs/decisions/0031-channel-chat.md). */
export * from './chat-values';

/** A chat's id: 'free' or a channel id. */
export const chatParamsSchema = z.object({ channel: textField(32).regex(/^[a-z0-9-]{1,32}$/, 'Unknown chat') });
export const chatMessageParamsSchema = z.object({ id: uuidField() });

export const chatMessageSchema = z.object({
  id: z.string(),
  channel: z.string(),
  userId: z.string().nullable(),
  authorName: z.string(),
  authorTier: z.enum(TIERS),
  supporter: z.boolean(),
  authorIsAdmin: z.boolean(),
  text: z.string(),
  held: z.boolean(),
  createdAt: z.string(),
}) satisfies z.ZodType<ChatMessageView>;

/** GET /api/chat/{channel}/messages: the last messages, oldest first, and what the reader may do. */
export const chatHistorySchema = z.object({
  channel: z.string(),
  messages: z.array(chatMessageSchema).max(CHAT_HISTORY * 2),
  canPost: z.boolean(),
  canModerate: z.boolean(),
  /** When the reader's mute ends, or null. */
  mutedUntil: z.string().nullable(),
  /** The reader's ban from comments and chat while it is in force: its reason and end (null = permanent). */
  ban: z.object({ reason: z.string(), until: z.string().nullable() }).nullable(),
});
export type ChatHistory = z.infer<typeof chatHistorySchema>;

export const postChatMessageSchema = z.object({ text: textField(CHAT_MAX_LENGTH * 4, CHAT_MESSAGES.tooLong) });
export const postChatMessageReplySchema = z.object({ message: chatMessageSchema, notice: z.string() });

export const chatMuteSchema = z.object({
  userId: uuidField(),
  minutes: z.number().int().min(1).max(CHAT_MUTE_MAX_MINUTES),
});
export type ChatMuteBody = z.infer<typeof chatMuteSchema>;
export const chatMuteReplySchema = z.object({ userId: z.string(), until: z.string(), message: z.string() });
export const chatActionReplySchema = z.object({ message: z.string() });

/** A muted member's refusal carries the end of the mute. */
export const chatMutedErrorSchema = z.object({
  error: z.object({ code: z.literal('muted'), message: z.string() }),
  message: z.string(),
  until: z.string(),
});

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CHAT_MESSAGES,
  chatActionReplySchema,
  chatHistorySchema,
  chatMessageParamsSchema,
  chatMutedErrorSchema,
  chatMuteReplySchema,
  chatMuteSchema,
  chatParamsSchema,
  postChatMessageReplySchema,
  postChatMessageSchema,
  type ChatEvent,
} from '../../../contracts/chat';
import { errorEnvelopeSchema } from '../../../contracts/errors';
import { unauthorized } from '../../lib/errors';
import { enforceRateLimit, RATE_RULES } from '../../lib/rate-limit';
import { access } from '../../plugins/access';
import { announceStanding } from '../comments/comment-rules';
import { approveChatMessage, chatHistory, deleteChatMessage, muteMember, postChatMessage } from './chat-service';
import { toChatMessage } from './chat-views';

/** The chat API: reads follow the channel's own tier (checked in the service), writes the session's member. */
/** Sends a chat event to every instance's readers of that chat (through NOTIFY, never directly). */
export type PublishChat = (event: ChatEvent) => Promise<void>;

export const chatRoutes: FastifyPluginAsyncZod<{ publishChat: PublishChat }> = async (app, { publishChat }) => {
  const { db } = app.database;

  app.get(
    '/api/chat/:channel/messages',
    {
      config: { access: access.public },
      schema: {
        summary: "A channel's chat messages",
        params: chatParamsSchema,
        // A premium chat refuses visitors (401) and members who may not hear the channel (403).
        response: { 200: chatHistorySchema, 401: errorEnvelopeSchema, 403: errorEnvelopeSchema, 404: errorEnvelopeSchema },
      },
    },
    async (req, reply) => {
      const h = await chatHistory(db, req.params.channel, req.user);
      reply.header('cache-control', 'private, no-store');
      return { channel: h.channel, messages: h.rows.map(toChatMessage), canPost: h.canPost, canModerate: h.canModerate, mutedUntil: h.mutedUntil, ban: h.ban };
    },
  );

  app.post(
    '/api/chat/:channel/messages',
    {
      config: { access: access.member },
      schema: {
        summary: 'Post a chat message',
        params: chatParamsSchema,
        body: postChatMessageSchema,
        response: { 201: postChatMessageReplySchema, 403: chatMutedErrorSchema.or(errorEnvelopeSchema), 404: errorEnvelopeSchema, 429: errorEnvelopeSchema },
      },
    },
    async (req, reply) => {
      const admitted = enforceRateLimit(db, req, RATE_RULES.chatPost);
      const row = await postChatMessage(db, { channel: req.params.channel, user: req.user, raw: req.body.text, admitted });
      const message = toChatMessage(row);
      // A held message reaches its author's reply only; moderators see it when they open the chat.
      if (!message.held) await publishChat({ channel: message.channel, kind: 'message', message });
      return reply.status(201).send({ message, notice: message.held ? CHAT_MESSAGES.held : '' });
    },
  );

  const adminOnly = { access: access.admin };
  app.delete(
    '/api/admin/chat/messages/:id',
    {
      config: adminOnly,
      schema: { summary: 'Remove a chat message', params: chatMessageParamsSchema, response: { 200: chatActionReplySchema, 404: errorEnvelopeSchema } },
    },
    async (req) => {
      const row = await deleteChatMessage(db, req.params.id);
      await publishChat({ channel: row.channel, kind: 'delete', id: row.id });
      return { message: CHAT_MESSAGES.deleted };
    },
  );

  app.post(
    '/api/admin/chat/messages/:id/approve',
    {
      config: adminOnly,
      schema: { summary: 'Approve a held chat message', params: chatMessageParamsSchema, response: { 200: chatActionReplySchema, 404: errorEnvelopeSchema } },
    },
    async (req) => {
      const message = toChatMessage(await approveChatMessage(db, req.params.id));
      await publishChat({ channel: message.channel, kind: 'message', message });
      return { message: CHAT_MESSAGES.approved };
    },
  );

  app.post(
    '/api/admin/chat/mutes',
    {
      config: adminOnly,
      schema: { summary: 'Mute a member in the chat', body: chatMuteSchema, response: { 200: chatMuteReplySchema, 404: errorEnvelopeSchema } },
    },
    async (req) => {
      if (!req.user) throw unauthorized();
      const muted = await muteMember(db, req.user, req.body);
      await announceStanding(app.database, muted.userId);
      return muted;
    },
  );
};

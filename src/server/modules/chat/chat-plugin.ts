import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { CHAT_EVENT, type ChatEvent } from '../../../contracts/chat';
import { DAY_MS } from '../../../contracts/time';
import { runPeriodically } from '../../lib/periodic-job';
import { SseHub } from '../events/sse-hub';
import { chatRoutes, type PublishChat } from './chat-routes';
import type { LiveEvents } from '../events/live-events';
import { pruneChat, readableChats } from './chat-service';
import { STANDING_NOTIFY_CHANNEL } from '../comments/comment-rules';

/** The NOTIFY channel every instance listens on; the payload is the SSE event's data. */
export const CHAT_NOTIFY_CHANNEL = 'dhr_chat';
/** PostgreSQL refuses NOTIFY payloads of 8000 bytes and more. */
const NOTIFY_MAX_BYTES = 7900;

/** The SSE audience of a chat: the streams opened by readers who may read it. */
export const chatAudience = (channel: string) => `chat:${channel}`;
/** A member's own streams: what is said to them alone (their standing: a mute, a ban). */
const memberAudience = (userId: string) => `chat-member:${userId}`;
/** The `standing` event's frame, the same for everyone: the member's page reads the chat again. */
const STANDING_FRAME = SseHub.frame(CHAT_EVENT, JSON.stringify({ kind: 'standing' } satisfies ChatEvent));

/**
 * The channel chats: routes, delivery and retention (docs/decisions/0031-channel-chat.md).
 * A message travels as the SSE `chat` event over /api/live/events: the writer NOTIFYs, and every
 * instance (the writer's too, on PGlite as on PostgreSQL) writes it to its streams whose reader may
 * read that chat. The event carries the message itself (at most CHAT_MAX_LENGTH characters), so no
 * instance reads the database per message.
 */
const plugin: FastifyPluginAsync<{ events: LiveEvents }> = async (app, { events }) => {
  // Which chats a new stream hears: fixed when it connects, from its session's member (never the URL).
  events.addAudiences(async (user) => [...(await readableChats(app.database.db, user)).map(chatAudience), ...(user ? [memberAudience(user.id)] : [])]);

  const publishChat: PublishChat = async (event: ChatEvent) => {
    const payload = JSON.stringify(event);
    if (Buffer.byteLength(payload) > NOTIFY_MAX_BYTES) throw new Error('chat event too large for NOTIFY');
    await app.database.notify(CHAT_NOTIFY_CHANNEL, payload);
  };

  let unlisten: (() => Promise<void>) | undefined;
  let unlistenStanding: (() => Promise<void>) | undefined;
  app.addHook('onReady', async () => {
    unlistenStanding = await app.database.listen(STANDING_NOTIFY_CHANNEL, (userId) => events.hub.broadcastRaw(STANDING_FRAME, memberAudience(userId)));
    unlisten = await app.database.listen(CHAT_NOTIFY_CHANNEL, (payload) => {
      let event: { channel?: unknown };
      try {
        event = JSON.parse(payload) as { channel?: unknown };
      } catch {
        return;
      }
      if (typeof event.channel !== 'string') return;
      // One frame, serialised once (on one line) for every reader of that chat, written with the
      // other messages of the same 100 ms.
      events.hub.broadcastBatched(SseHub.frame(CHAT_EVENT, JSON.stringify(event)), chatAudience(event.channel));
    });
  });
  app.addHook('preClose', async () => {
    await unlisten?.().catch(() => undefined);
    await unlistenStanding?.().catch(() => undefined);
  });

  runPeriodically(app, { name: 'chat retention', everyMs: DAY_MS, run: () => pruneChat(app.database.db) });

  await app.register(chatRoutes, { publishChat });
};

export const chatPlugin = fp(plugin, { name: 'chat' });

import fp from 'fastify-plugin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Gauge } from 'prom-client';
import { z } from 'zod';
import { textField } from '../../../contracts/text-field';
import { clientBucket } from '../../lib/client-address';
import { findSessionUser, sessionCookieName } from '../../lib/sessions';
import { access } from '../../plugins/access';
import { mediaReply } from '../../plugins/reply-schemas';
import type { LiveEvents } from './live-events';
import { MEMBER_CHANGED_CHANNEL, streamsToEnd } from './sse-hub';
import { openStream, refuseStream } from './sse-replies';

/**
 * GET /api/live/events: the one Server-Sent Events stream every page holds open. The radio sends
 * `now-playing` on it, the chat `chat` (live-events.ts); a member's streams end when their rights or
 * session change.
 */
const routes: FastifyPluginAsyncZod<{ events: LiveEvents }> = async (app, { events }) => {
  const cookieName = sessionCookieName(app.config.secureCookies);
  events.hub.limits = { perAddress: app.config.SSE_MAX_PER_IP, total: app.config.SSE_MAX_TOTAL };

  // What operators watch: connected SSE clients.
  new Gauge({
    name: 'dhr_sse_clients',
    help: 'Clients connected to /api/live/events on this instance',
    registers: [app.metrics],
    collect() {
      this.set(events.hub.size);
    },
  });

  // A member's streams end when their rights or session change (the database's triggers NOTIFY it,
  // migration 0018): the browser reconnects and the new stream hears what the member may hear now.
  let unlistenMembers: (() => Promise<void>) | undefined;
  app.addHook('onReady', async () => {
    unlistenMembers = await app.database.listen(MEMBER_CHANGED_CHANNEL, (payload) => {
      const match = streamsToEnd(payload);
      if (match) events.hub.endStreamsOf(match);
    });
  });
  app.addHook('onClose', async () => unlistenMembers?.());
  // Before the server stops accepting: end the streams so close() does not wait on them.
  app.addHook('preClose', async () => events.hub.closeAll());

  app.get(
    '/api/live/events',
    {
      // Other sites may read the public events; a cross-origin stream is a visitor's (plugins/cors.ts).
      config: { access: access.public, sharedAnswer: true, cors: 'public' },
      schema: {
        summary: 'Now-playing changes as server-sent events',
        querystring: z.object({ lastEventId: textField(32).optional() }),
        response: {
          200: mediaReply('text/event-stream', 'Server-Sent Events: `now-playing` with each change (and every channel on connect).'),
          503: mediaReply('text/event-stream', 'Too many live connections: a `retry:` and an `error` event, with Retry-After.'),
        },
      },
    },
    async (req, reply) => {
      const header = req.headers['last-event-id'];
      const raw = (Array.isArray(header) ? header[0] : header) ?? req.query.lastEventId;
      const lastId = raw !== undefined && /^\d{1,16}$/.test(raw.trim()) ? Number(raw.trim()) : undefined;
      // Counted per client as the rate limits count them: IPv6 by its /64 (one line holds a whole /64).
      const client = clientBucket(req.ip);
      if (!events.hub.admits(client)) return refuseStream(reply);
      // Whose stream this is, from the session (never the URL); a lookup or resolver that fails (the
      // database away) only leaves the member's audiences out: the stream still opens.
      const token = req.cookies[cookieName];
      const session = token && token.length <= 128 ? await findSessionUser(app.database.db, token).catch(() => null) : null;
      const user = session?.user ?? null;
      const audiences = await events.audiencesOf(user);
      // Checked again after the wait, with nothing awaited until the stream joins the hub: parallel
      // connections from one client cannot all pass the first check.
      if (!events.hub.admits(client)) return refuseStream(reply);
      const res = openStream(req, reply);
      if (!res) return;
      res.write(`retry: 3000\n\n${events.replay(lastId)}`);
      events.hub.add(res, client, audiences, session ? { userId: session.user.id, sessionHash: session.idHash } : null);
    },
  );
};

export const eventsRoutes = fp(routes, { name: 'events' });

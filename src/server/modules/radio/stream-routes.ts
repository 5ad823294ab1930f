/**
 * Paid streams stay paid (ADR 0012). Members ask for a premium mount URL with a short-lived token;
 * Icecast asks DHR about that token on every listener connection (URL listener authentication).
 */
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { memberStreamConnectionsSchema, streamTicketSchema, type StreamTicket } from '../../../contracts/channels';
import { errorEnvelopeSchema } from '../../../contracts/errors';
import { channelParamsSchema } from '../../../contracts/radio';
import { forbidden, unauthorized } from '../../lib/errors';
import { enforceRateLimit, RATE_RULES } from '../../lib/rate-limit';
import { safeEqual } from '../../lib/tokens';
import { access, denial } from '../../plugins/access';
import { mountPath } from './icecast-status';
import { memberStreamConnections, requiredTierOf, StreamAdmission } from './stream-admission';
import { type StreamTokens, withToken } from './stream-tokens';
import type { NowPlaying } from './now-playing';
import { textField, uuidField } from '../../../contracts/text-field';

/** The answer Icecast reads from the headers (icecast-auth-user: 1 admits); the body says why, for logs. */
const listenerAuthReplySchema = z.object({ admitted: z.boolean(), action: z.string().optional(), reason: z.string().optional() });

/** What Icecast 2.4 POSTs (auth.html: listener_add / listener_remove); unknown fields are ignored. */
const listenerAuthBodySchema = z.object({
  action: textField(32),
  mount: textField(4096),
  client: textField(64).optional(),
  server: textField(256).optional(),
  port: textField(8).optional(),
  user: textField(256).optional(),
  pass: textField(256).optional(),
  ip: textField(64).optional(),
  agent: textField(1024).optional(),
  duration: textField(16).optional(),
});

const FORM_BODY_LIMIT = 16 * 1024;

/** The key from `Authorization: Basic <any user>:<STREAM_AUTH_KEY>` (Icecast's `username`/`password` options). */
function presentedKey(req: FastifyRequest): string | undefined {
  const header = req.headers.authorization;
  if (!header?.startsWith('Basic ')) return undefined;
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : decoded.slice(colon + 1);
}

export const streamRoutes: FastifyPluginAsyncZod<{ nowPlaying: NowPlaying; streamTokens: StreamTokens }> = async (
  app,
  { nowPlaying, streamTokens: tokens },
) => {
  const { db } = app.database;
  const streamKey = app.config.STREAM_AUTH_KEY;
  if (!streamKey) app.log.warn('STREAM_AUTH_KEY is not set: premium mounts cannot admit anyone');

  // Icecast posts forms; this parser lives only in this plugin's scope.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(typeof body === 'string' ? body : body.toString('utf8'))));
  });

  const admission = new StreamAdmission(
    db,
    tokens,
    nowPlaying,
    app.config.STREAM_MAX_CONCURRENT,
    { user: app.config.ICECAST_ADMIN_USER, password: app.config.ICECAST_ADMIN_PASSWORD },
    (message, detail) => app.log.warn(detail, message),
  );

  app.get(
    '/api/channels/:channel/stream',
    {
      config: { access: access.member },
      schema: { summary: 'A premium stream address for me', params: channelParamsSchema, response: { 200: streamTicketSchema } },
    },
    async (req, reply): Promise<StreamTicket> => {
      const id = await nowPlaying.knownChannel(req.params.channel);
      const channel = nowPlaying.channel(id);
      const user = req.user;
      if (!channel || !user) throw unauthorized();
      // The same policy that guards tier routes, with the tier the channel's row names (its own code:
      // the route's hook lets every member in; the channel's data decides who gets audio).
      const refused = denial(access.tier(requiredTierOf(channel)), user);
      if (refused) throw forbidden(refused.message, 'channel_tier_required');
      const mount = mountPath(channel.streamUrl) ?? '/';
      const { token, expiresAt } = tokens.issue(user.id, mount);
      reply.header('cache-control', 'no-store');
      return { url: withToken(channel.streamUrl, token), expiresAt: expiresAt.toISOString() };
    },
  );

  // The admin's user view: where and on what a member listens now, and lately.
  app.get(
    '/api/admin/users/:id/stream-connections',
    {
      config: { access: access.admin },
      schema: { summary: 'Where and on what a member listens', params: z.object({ id: uuidField() }), response: { 200: memberStreamConnectionsSchema } },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return memberStreamConnections(db, req.params.id, app.config.STREAM_MAX_CONCURRENT);
    },
  );

  /**
   * Only the streaming host (holding STREAM_AUTH_KEY) may call; checked before the body is read.
   * Callers without the key are counted per IP and get 429 once over the limit; the host's own calls
   * are not counted (every listener of the station comes from its one address, and Icecast already
   * caps its pending checks), which keeps a database write off every listener's connection.
   */
  async function streamHostOnly(req: FastifyRequest): Promise<void> {
    const key = presentedKey(req);
    if (streamKey && key && safeEqual(key, streamKey)) return;
    await enforceRateLimit(db, req, RATE_RULES.streamAuth);
    throw unauthorized('Stream host key required', 'stream_key_required');
  }

  app.post(
    '/api/stream-auth/listener',
    {
      // The mount field carries a live token: this route writes no request log lines.
      logLevel: 'warn',
      config: { access: access.public },
      onRequest: streamHostOnly,
      schema: {
        summary: 'Admit a listener to a premium mount (Icecast listener_add / listener_remove)',
        description: "Called by Icecast's URL authentication, with HTTP Basic credentials whose password is STREAM_AUTH_KEY.",
        // Icecast posts a form; JSON is read too.
        consumes: ['application/x-www-form-urlencoded', 'application/json'],
        body: listenerAuthBodySchema,
        response: { 200: listenerAuthReplySchema, 401: errorEnvelopeSchema },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      const body = req.body;
      const connection = { icecast: `${body.server ?? ''}:${body.port ?? ''}`, clientId: body.client ?? '', ip: body.ip ?? '', userAgent: body.agent ?? '' };
      if (body.action === 'listener_remove') {
        await admission.release(connection);
        return { admitted: false, action: body.action };
      }
      if (body.action !== 'listener_add') return { admitted: false, action: body.action };
      const outcome = await admission.admit(body.mount, connection);
      if ('refusal' in outcome) {
        reply.header('icecast-auth-message', outcome.refusal);
        return { admitted: false, reason: outcome.refusal };
      }
      reply.header('icecast-auth-user', '1');
      if (outcome.timelimitS !== null) reply.header('icecast-auth-timelimit', String(outcome.timelimitS));
      return { admitted: true };
    },
  );
};

import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { webhookReplySchema } from '../../../contracts/supporters';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Platform } from '../../db/schema';
import { badRequest, unauthorized } from '../../lib/errors';
import { access } from '../../plugins/access';
import { signedJsonRequest } from '../../plugins/request-bodies';
import { parseBmcSubscription, parsePatreonMember, type PlatformRecordInput } from './clients';
import type { PlatformMetrics } from './platform-metrics';
import { applyWebhookDelivery } from './webhook-service';
import { errorEnvelopeSchema } from '../../../contracts/errors';

export const PATREON_EVENTS = [
  'members:create',
  'members:update',
  'members:delete',
  'members:pledge:create',
  'members:pledge:update',
  'members:pledge:delete',
] as const;
export const BMC_EVENTS = ['membership.started', 'membership.updated', 'membership.cancelled'] as const;

const WEBHOOK_BODY_LIMIT = 1024 * 1024;

/** A delivery is taken (200), malformed (400) or not signed with the shared secret (401). */
const WEBHOOK_REPLIES = { 200: webhookReplySchema, 400: errorEnvelopeSchema, 401: errorEnvelopeSchema };

/** Constant-time comparison of a hex signature header with the expected HMAC. */
export function signatureMatches(header: string | undefined, expectedHex: string): boolean {
  if (!header) return false;
  const given = Buffer.from(header.trim().toLowerCase(), 'utf8');
  const expected = Buffer.from(expectedHex, 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function rawBody(req: FastifyRequest): Buffer {
  return Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
}

function parseJson(raw: Buffer): Record<string, unknown> {
  try {
    const doc: unknown = JSON.parse(raw.toString('utf8'));
    if (typeof doc === 'object' && doc !== null && !Array.isArray(doc)) return doc as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw badRequest('The webhook body is not a JSON object', 'invalid_body');
}

function header(req: FastifyRequest, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * Patreon and Buy Me a Coffee webhooks. Public routes whose check is the HMAC signature of the raw
 * body; the raw-body parser is scoped to this plugin so other routes keep Fastify's JSON parser.
 */
export const webhookRoutes: FastifyPluginAsyncZod<{ metrics: PlatformMetrics | null }> = async (app, opts) => {
  app.addHook('onResponse', async (req, reply) => {
    opts.metrics?.webhook(req.url.includes('patreon') ? 'patreon' : 'buymeacoffee', reply.statusCode);
  });
  const keepRaw = (_req: FastifyRequest, body: Buffer, done: (err: Error | null, body?: Buffer) => void) => done(null, body);
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, keepRaw);
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, keepRaw);

  const apply = (platform: Platform, deliveryKey: string, event: string, record: PlatformRecordInput | null) =>
    applyWebhookDelivery(app.database.db, { platform, deliveryKey, event, record });

  const patreon = {
    access: access.public,
    documentedRequest: signedJsonRequest(
      'A Patreon webhook delivery: the member document (JSON:API) of the event.',
      'x-patreon-signature',
      'HMAC-MD5 of the raw body with PATREON_WEBHOOK_SECRET, in hex.',
      { 'x-patreon-event': { description: `The event: ${PATREON_EVENTS.join(', ')}.`, required: true, schema: { type: 'string', enum: [...PATREON_EVENTS] } } },
    ),
  };
  app.post('/api/webhooks/patreon', { config: patreon, schema: { summary: 'Receive a Patreon webhook', response: WEBHOOK_REPLIES } }, async (req) => {
    const secret = app.config.PATREON_WEBHOOK_SECRET;
    if (!secret) throw unauthorized('Patreon webhooks are not configured (PATREON_WEBHOOK_SECRET is unset)', 'webhook_not_configured');
    const raw = rawBody(req);
    const signature = header(req, 'x-patreon-signature');
    if (!signature) throw unauthorized('Missing X-Patreon-Signature header', 'invalid_signature');
    if (!signatureMatches(signature, createHmac('md5', secret).update(raw).digest('hex'))) {
      throw unauthorized('Invalid Patreon webhook signature', 'invalid_signature');
    }
    const event = header(req, 'x-patreon-event') ?? '';
    if (!(PATREON_EVENTS as readonly string[]).includes(event)) {
      throw badRequest(`Unknown X-Patreon-Event '${event.slice(0, 60)}'`, 'unknown_event');
    }
    const doc = parseJson(raw);
    const record = parsePatreonMember(doc.data);
    // A deleted membership gives no access, whatever status the last document carried.
    if (record && event === 'members:delete') record.platformStatus = 'former_patron';
    // The body alone is the key: the signature covers the body, not the event header, so the same
    // signed body replayed under another event name (e.g. members:delete) is the same delivery.
    const key = createHash('sha256').update(raw).digest('hex');
    return apply('patreon', key, event, record);
  });

  const bmc = {
    access: access.public,
    documentedRequest: signedJsonRequest(
      'A Buy Me a Coffee webhook delivery: `{ type, event_id, data }`; membership events change access, others are acknowledged.',
      'x-signature-sha256',
      'HMAC-SHA256 of the raw body with BMC_WEBHOOK_SECRET, in hex.',
    ),
  };
  const bmcSchema = { summary: 'Receive a Buy Me a Coffee webhook', response: WEBHOOK_REPLIES };
  app.post('/api/webhooks/buymeacoffee', { config: bmc, schema: bmcSchema }, async (req) => {
    const secret = app.config.BMC_WEBHOOK_SECRET;
    if (!secret) throw unauthorized('Buy Me a Coffee webhooks are not configured (BMC_WEBHOOK_SECRET is unset)', 'webhook_not_configured');
    const raw = rawBody(req);
    const signature = header(req, 'x-signature-sha256');
    if (!signature) throw unauthorized('Missing x-signature-sha256 header', 'invalid_signature');
    if (!signatureMatches(signature, createHmac('sha256', secret).update(raw).digest('hex'))) {
      throw unauthorized('Invalid Buy Me a Coffee webhook signature', 'invalid_signature');
    }
    const doc = parseJson(raw);
    const type = typeof doc.type === 'string' ? doc.type : '';
    const eventId = typeof doc.event_id === 'string' || typeof doc.event_id === 'number' ? String(doc.event_id) : null;
    const key = eventId ? `event:${eventId.slice(0, 200)}` : createHash('sha256').update(raw).digest('hex');
    if (!(BMC_EVENTS as readonly string[]).includes(type)) {
      // Other events (one-off coffees, extras, ...) are acknowledged so the platform stops retrying.
      return apply('buymeacoffee', key, type.slice(0, 60) || 'unknown', null);
    }
    const record = parseBmcSubscription(doc.data);
    if (record && type === 'membership.cancelled') {
      record.isCancelled = true;
      // A membership cancelled before its paid period ends keeps access until then.
      if (record.periodEndAt && record.periodEndAt > new Date()) record.cancelledAtPeriodEnd = true;
      record.platformStatus = 'cancelled';
    }
    return apply('buymeacoffee', key, type, record);
  });
};

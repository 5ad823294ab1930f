import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable } from '../db/unavailable';
import { AppError } from '../lib/errors';

/** What a client is told to wait when the database is away (a restart takes seconds). */
export const DATABASE_RETRY_AFTER_S = 5;

export function sendError(reply: FastifyReply, status: number, code: string, message: string, extra: Record<string, unknown> = {}) {
  return reply
    .status(status)
    .type('application/json')
    .send({ ...extra, error: { code, message }, message });
}

/** One error shape end to end; 5xx details stay in the log. */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    // An unmatched URL runs no route's no-store hook (plugins/access.ts); its refusals are not stored either.
    if (request.is404) reply.header('cache-control', 'no-store');
    if (err instanceof AppError) {
      for (const [k, v] of Object.entries(err.headers)) reply.header(k, v);
      return sendError(reply, err.statusCode, err.code, err.message, err.extra);
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const first = err.validation[0];
      const where = err.validationContext ?? 'body';
      const field = first?.instancePath ? first.instancePath.replace(/^\//, '').replace(/\//g, '.') : '';
      const detail = first?.message ?? 'is invalid';
      const message = field ? `Invalid ${where} field '${field}': ${detail}` : `Invalid ${where}: ${detail}`;
      return sendError(reply, 400, 'validation_error', message);
    }
    if (isResponseSerializationError(err)) {
      request.log.error({ err }, 'response did not match its schema');
      return sendError(reply, 500, 'internal_error', 'Something went wrong on our side. Please try again.');
    }
    const status = err.statusCode ?? 500;
    if (status === 429) {
      return sendError(reply, 429, 'rate_limited', err.message);
    }
    if (status >= 400 && status < 500) {
      // Fastify's own client errors (bad JSON, body too large, unsupported media type).
      return sendError(reply, status, err.code?.toLowerCase() ?? 'bad_request', err.message);
    }
    if (isDatabaseUnavailable(err)) {
      request.log.warn({ err }, 'database unavailable');
      reply.header('retry-after', String(DATABASE_RETRY_AFTER_S));
      return sendError(reply, 503, 'service_unavailable', 'The service is briefly unavailable. Please try again in a few seconds.');
    }
    request.log.error({ err }, 'unhandled error');
    return sendError(reply, 500, 'internal_error', 'Something went wrong on our side. Please try again.');
  });
});

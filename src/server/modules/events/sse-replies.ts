import type { ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SSE_RETRY_AFTER_S } from './sse-hub';

/**
 * A stream refused beyond the caps: each one holds a socket for hours, so the client is told when to
 * come back, in HTTP (Retry-After) and in SSE (`retry:`), with the error envelope as the event's data.
 * /api/live/events and AzuraCast's stream answer alike.
 */
export function refuseStream(reply: FastifyReply): FastifyReply {
  const message = 'Too many live connections right now. Please try again shortly.';
  const envelope = JSON.stringify({ error: { code: 'too_many_streams', message }, message });
  return reply
    .code(503)
    .header('retry-after', String(SSE_RETRY_AFTER_S))
    .header('cache-control', 'no-store')
    .type('text/event-stream; charset=utf-8')
    .send(`retry: ${SSE_RETRY_AFTER_S * 1000}\nevent: error\ndata: ${envelope}\n\n`);
}

/** Takes the response over for a stream and writes its head; undefined when the reader has already left. */
export function openStream(req: FastifyRequest, reply: FastifyReply): ServerResponse | undefined {
  reply.hijack();
  // The reader may have left while the stream was prepared: a closed socket never joins a hub.
  if (req.raw.socket.destroyed) return undefined;
  reply.raw.writeHead(200, {
    // The stream bypasses the reply hooks: the headers set so far (security, CORS) are written here.
    ...(reply.getHeaders() as Record<string, string>),
    'content-type': 'text/event-stream; charset=utf-8',
    // no-store: the stream may be opened with a member's cookie (member data is never cached).
    'cache-control': 'no-cache, no-store, no-transform',
    connection: 'keep-alive',
    // nginx and similar proxies must not buffer the stream.
    'x-accel-buffering': 'no',
    'x-content-type-options': 'nosniff',
  });
  // An injected request (tests) has no socket options to set.
  req.raw.socket.setNoDelay?.(true);
  return reply.raw;
}

import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import FindMyWay from 'find-my-way';
import { errorEnvelopeSchema } from '../../contracts/errors';
import { notFound } from '../lib/errors';
import { access, hookList } from './access';
import { noContentReply } from './reply-schemas';
import { isSameSiteOrigin } from './security';

/**
 * CORS for the public read API, in one place (docs/decisions/0025-api-document-and-nowplaying.md).
 * Widgets on other sites read now playing, the AzuraCast routes, live metadata, the track history,
 * the playlists and the public live events with fetch() or EventSource. A route opts in with
 * `config.cors: 'public'` (only `access.public` routes may): its answers carry
 * `access-control-allow-origin: *`, `OPTIONS` preflights of its path answer 204, and a cross-origin
 * request to it is read as a visitor's (its cookies are not honoured). No route ever allows
 * credentials; every other route stays same-origin (no CORS header, a preflight answers 404).
 */

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `'public'`: the answer may be read by any site (a public read with no member data). */
    cors?: 'public';
  }
}

/** On every answer of a `cors: 'public'` route, through Fastify and the memory path alike. */
export const PUBLIC_CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  // Art and playlists are loaded by <img>/<audio> without CORS: the same-origin resource policy would block them.
  'cross-origin-resource-policy': 'cross-origin',
};

/** The answer to a preflight: the methods a widget uses and the headers its HTTP clients add. */
export const PREFLIGHT_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, HEAD, OPTIONS',
  'access-control-allow-headers': 'cache-control, pragma, expires, x-api-key, content-type',
  'access-control-max-age': '86400',
};

/** The path of a request URL, without its query. */
function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}

export const corsPlugin = fp(
  async (app: FastifyInstance) => {
    // The paths of the routes that opted in, matched as Fastify matches them.
    const publicReads = FindMyWay<FindMyWay.HTTPVersion.V1>({ caseSensitive: true, ignoreTrailingSlash: false, maxParamLength: 100 });
    const ownOrigin = new URL(app.config.PUBLIC_URL).origin;

    const corsHook: onRequestHookHandler = (req, reply, done) => {
      reply.headers(PUBLIC_CORS_HEADERS);
      // Another site's request never acts as a member: its cookies are dropped before the session is read.
      if (!isSameSiteOrigin(req.headers.origin, req.headers.host, ownOrigin)) req.cookies = {};
      done();
    };

    app.addHook('onRoute', (route) => {
      if (route.config?.cors !== 'public') return;
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      if (route.config.access?.kind !== 'public' || methods.some((m) => m !== 'GET' && m !== 'HEAD')) {
        throw new Error(`Route ${methods.join(',')} ${route.url} is open to other sites (cors: 'public') but is not a public read`);
      }
      if (methods.includes('GET')) publicReads.on('GET', route.url, () => undefined);
      // Before the access hook (registered earlier, so already first): cookies go before the session lookup.
      route.onRequest = [corsHook, ...hookList(route.onRequest)];
    });

    app.options(
      '/api/*',
      {
        config: { access: access.public, sharedAnswer: true },
        schema: { response: { 204: noContentReply, 404: errorEnvelopeSchema } },
      },
      async (req, reply) => {
        const path = pathOf(req.url);
        if (!publicReads.find('GET', path)) throw notFound(`No route other sites may read at ${path}`, 'not_found');
        return reply.code(204).headers(PREFLIGHT_HEADERS).header('cache-control', 'public, max-age=86400').send();
      },
    );
  },
  { name: 'cors' },
);

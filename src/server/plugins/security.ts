import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import fp from 'fastify-plugin';
import { forbidden } from '../lib/errors';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Origins the pages may load media from: the channels' Icecast servers. */
function streamOrigins(urls: string[]): string[] {
  const out = new Set<string>();
  for (const u of urls) {
    try {
      out.add(new URL(u).origin);
    } catch {
      // config already validated these; ignore the impossible
    }
  }
  return [...out];
}

/**
 * helmet computes the header set; it is the same for every response, so it is computed once at
 * start-up instead of per request (the per-request middleware cost a tenth of our throughput).
 */
function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader(name: string, value: unknown) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let done = false;
  helmet(options)({} as IncomingMessage, res as unknown as ServerResponse, () => {
    done = true;
  });
  if (!done) throw new Error('helmet did not finish synchronously');
  return headers;
}

/**
 * JSON is never rendered as a document, so the document policies (CSP, framing, opener) only add
 * bytes to every API reply; API replies keep the headers that matter for data.
 */
export const API_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'cross-origin-resource-policy': 'same-origin',
  'referrer-policy': 'no-referrer',
};

/** Security headers with a CSP the app's own pages satisfy, and the cross-site write guard. */
export const securityPlugin = fp(async (app: FastifyInstance) => {
  const { config } = app;
  // The radio's Icecast servers, and the S3-compatible store mix links are sent on to (presigned URLs).
  const media = streamOrigins([config.DHR1_STREAM_URL, config.DHR2_STREAM_URL, ...(config.S3_BUCKET && config.S3_ENDPOINT ? [config.S3_ENDPOINT] : [])]);
  const headers = helmetHeaders({
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'"],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:', 'blob:', 'https:'],
        'media-src': ["'self'", 'blob:', ...media, 'https:'],
        'connect-src': ["'self'", ...media],
        'font-src': ["'self'", 'data:'],
        'worker-src': ["'self'"],
        'manifest-src': ["'self'"],
        'frame-ancestors': ["'self'"],
        'form-action': ["'self'"],
        'upgrade-insecure-requests': config.secureCookies ? [] : null,
      },
    },
    // The pop-out player and share windows need window.opener.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: config.secureCookies ? undefined : false,
  });
  const ownOrigin = new URL(config.PUBLIC_URL).origin;
  // One hook for both jobs: it runs on every request.
  app.addHook('onRequest', (req, reply, done) => {
    reply.headers(req.url.startsWith('/api/') ? API_HEADERS : headers);
    if (SAFE_METHODS.has(req.method) || isSameSiteOrigin(req.headers.origin, req.headers.host, ownOrigin)) return done();
    // State-changing requests whose Origin names another site are refused (docs/decisions/0004-security-headers-computed-once.md).
    done(forbidden('Cross-site request refused', 'cross_site'));
  });
});

/** Whether a request's Origin is this site (no Origin: not a browser cross-site request). */
export function isSameSiteOrigin(origin: string | undefined, host: string | undefined, ownOrigin: string): boolean {
  if (origin === undefined) return true;
  if (origin === 'null') return false;
  if (origin === ownOrigin) return true;
  // Same host as the request itself (e.g. reached via another hostname or port-forward).
  try {
    return host !== undefined && new URL(origin).host === host;
  } catch {
    return false;
  }
}

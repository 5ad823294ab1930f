import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema, onRequestHookHandler, onSendHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { type AccessPolicy, access } from '../../contracts/access-policy';
import { MIX_MESSAGES } from '../../contracts/mixes';
import { canDownloadMixes, canPlayMixes, meetsTier } from '../../contracts/tier-policy';
import type { UserRow } from '../db/schema';
import { type AppError, forbidden, unauthorized } from '../lib/errors';
import { MediaLinks } from '../lib/media-links';
import {
  ADMIN_SESSION_MAX_MS,
  createSession,
  deleteSession,
  findSessionUser,
  MEMBER_SESSION_MAX_MS,
  sessionCookieName,
  type SessionMeta,
} from '../lib/sessions';

/**
 * The one access mechanism (docs/decisions/0003-one-access-policy.md): every route declares `config.access`,
 * and the hook below enforces it. Routes without a policy are refused at registration.
 * The policy type lives in src/contracts so the web's AccessGate takes the same values.
 */
export { type AccessPolicy, access };

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: AccessPolicy;
    /**
     * The answer is the same for every visitor and never reads the session, so the session is not looked
     * up: no database query per request, and the route keeps answering from its cache while the database is away.
     */
    sharedAnswer?: boolean;
    /** The text fields of a multipart body, as the route validates them (walked by the text-rule test). */
    multipartFields?: unknown;
  }
  interface FastifyInstance {
    /** Every registered route with its policy, for the test that walks them. */
    routePolicies: RoutePolicy[];
    /** Signs and checks session-bound links to VIP mixes (the `mediaLink` policy). */
    mediaLinks: MediaLinks;
  }
  interface FastifyRequest {
    /** The signed-in member, or null. Set before any handler runs. */
    user: UserRow | null;
    sessionIdHash: string | null;
  }
  interface FastifyReply {
    /** Start a fresh session for `userId` (drops the current one) and set the cookie (shorter-lived for admins). */
    signIn(userId: string, opts?: { isAdmin?: boolean }): Promise<void>;
    /** End the current session and clear the cookie. */
    signOut(): Promise<void>;
  }
}

export interface RoutePolicy {
  method: string;
  url: string;
  access: AccessPolicy;
  /** The route's schemas as registered (the hostile-input suite generates its bodies from them; the API document reads them all). */
  schema: Pick<FastifySchema, 'body' | 'querystring' | 'params' | 'response'> & { multipart?: unknown };
  sharedAnswer: boolean;
  /** Other sites' pages may read it (CORS, `config.cors: 'public'`: plugins/cors.ts). */
  otherSites: boolean;
}

/** Why `user` may not use a route with `policy`, or undefined when it may. No policy means no access. */
export function denial(policy: AccessPolicy | undefined, user: UserRow | null): AppError | undefined {
  if (!policy) return forbidden('This route declares no access policy', 'no_policy');
  if (policy.kind === 'public') return undefined;
  if (!user) return unauthorized();
  if (policy.kind === 'member') return undefined;
  if (policy.kind === 'admin') return user.isAdmin ? undefined : forbidden('Admin privileges required', 'admin_required');
  if (policy.kind === 'mediaLink') return mediaLinkDenial(policy.purpose, user);
  return meetsTier(user, policy.tier) ? undefined : forbidden(`This needs an active ${policy.tier.toUpperCase()} subscription`, 'tier_required');
}

/**
 * A media link's holder must still have the right the link's purpose needs (tier-policy's rule, read
 * again on every request, so a downgrade ends the links at once).
 */
function mediaLinkDenial(purpose: 'stream' | 'download', user: UserRow): AppError | undefined {
  if (purpose === 'stream') return canPlayMixes(user) ? undefined : forbidden(MIX_MESSAGES.playRequiresSubscription, 'subscription_required');
  return canDownloadMixes(user) ? undefined : forbidden(MIX_MESSAGES.vipRequiredForDownloads, 'vip_required');
}

const invalidMediaLink = () => forbidden(MIX_MESSAGES.linkExpired, 'invalid_media_token');

export function describePolicy(p: AccessPolicy): string {
  if (p.kind === 'tier') return `tier:${p.tier}`;
  if (p.kind === 'mediaLink') return `mediaLink:${p.purpose}`;
  if (p.kind === 'admin' && 'bearer' in p) return `admin|bearer:${p.bearer}`;
  return p.kind;
}

/** Whether the Authorization header carries `expected` as a bearer token (constant-time; unset never matches). */
export function bearerMatches(header: string | undefined, expected: string | undefined): boolean {
  if (!expected || !header?.startsWith('Bearer ')) return false;
  const given = createHash('sha256').update(header.slice(7).trim()).digest();
  return timingSafeEqual(given, createHash('sha256').update(expected).digest());
}

export const accessPlugin = fp(async (app: FastifyInstance) => {
  const { db } = app.database;

  app.decorateRequest('user', null);
  app.decorateRequest('sessionIdHash', null);

  app.decorate('routePolicies', [] as RoutePolicy[]);
  const mediaLinks = new MediaLinks(app.config.STREAM_AUTH_KEY);
  app.decorate('mediaLinks', mediaLinks);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const policy = route.config?.access;
    if (!policy) {
      throw new Error(`Route ${methods.join(',')} ${route.url} declares no access policy (config.access)`);
    }
    const sharedAnswer = route.config?.sharedAnswer === true;
    const otherSites = route.config?.cors === 'public';
    for (const m of methods) {
      const schema = {
        body: route.schema?.body,
        querystring: route.schema?.querystring,
        params: route.schema?.params,
        response: route.schema?.response,
        multipart: route.config?.multipartFields,
      };
      if (m !== 'HEAD') app.routePolicies.push({ method: m, url: route.url, access: policy, schema, sharedAnswer, otherSites });
    }
    // Each route gets its own access and no-store hooks, closing over its policy: the hot path never
    // reads `req.routeOptions`, a getter that builds and freezes a new object on every read
    // (docs/decisions/0020-hot-path-and-first-paint.md). Access runs before any hook the route declares.
    route.onRequest = [accessHook(policy, sharedAnswer), ...hookList(route.onRequest)];
    route.onSend = [...hookList(route.onSend), noStoreHook(policy)];
  });

  const cookieName = sessionCookieName(app.config.secureCookies);
  // No Domain attribute: the cookie stays on this host (required by the __Host- prefix on https).
  const cookieOptions = (isAdmin = false) => ({
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: app.config.secureCookies,
    maxAge: Math.floor((isAdmin ? ADMIN_SESSION_MAX_MS : MEMBER_SESSION_MAX_MS) / 1000),
  });

  app.decorateReply('signIn', async function signIn(this: FastifyReply, userId: string, opts: { isAdmin?: boolean } = {}) {
    const req = this.request;
    if (req.sessionIdHash) await deleteSession(db, req.sessionIdHash);
    const meta: SessionMeta = { ip: req.ip, userAgent: req.headers['user-agent'] };
    const token = await createSession(db, userId, meta);
    this.setCookie(cookieName, token, cookieOptions(opts.isAdmin));
  });

  app.decorateReply('signOut', async function signOut(this: FastifyReply) {
    const req = this.request;
    if (req.sessionIdHash) await deleteSession(db, req.sessionIdHash);
    req.user = null;
    req.sessionIdHash = null;
    this.clearCookie(cookieName, { path: '/', secure: app.config.secureCookies });
  });

  /**
   * The policy is enforced right after the session lookup, in onRequest: before the body is read or
   * parsed, so a visitor without access costs no parsing and learns nothing about a route's inputs.
   * Unmatched URLs (the 404 handler) have no route and so no policy; they answer 404 whoever asks.
   */
  function accessHook(policy: AccessPolicy, sharedAnswer: boolean): onRequestHookHandler {
    const bearer = policy.kind === 'admin' && 'bearer' in policy ? policy.bearer : undefined;
    const enforce = (req: FastifyRequest, done: (err?: Error) => void) => {
      if (bearer !== undefined && bearerMatches(req.headers.authorization, app.config[bearer])) return done();
      if (policy.kind === 'mediaLink') return done(mediaLinkRefusal(policy.purpose, req));
      done(denial(policy, req.user));
    };
    // Requests without a session cookie (most public reads), and routes whose answer is the same for
    // everyone, pass without touching the database. A media link without the cookie is refused the same way.
    return (req, _reply, done) => {
      const token = sharedAnswer ? undefined : req.cookies[cookieName];
      if (!token || token.length > 128) return enforce(req, done);
      findSessionUser(db, token).then((found) => {
        if (found) {
          req.user = found.user;
          req.sessionIdHash = found.idHash;
        }
        enforce(req, done);
      }, done);
    };
  }

  /**
   * A media link is good only with the session it was issued to (the token signs the session's id
   * hash), for the mix and purpose in the URL, while the member still has the right: checked here,
   * before the query is validated or any storage is touched. No session: the same 403 as a bad token.
   */
  function mediaLinkRefusal(purpose: 'stream' | 'download', req: FastifyRequest): AppError | undefined {
    const { user, sessionIdHash } = req;
    const token = (req.query as { token?: unknown }).token;
    const mixId = (req.params as { mixId?: unknown }).mixId;
    if (!user || !sessionIdHash || typeof token !== 'string' || typeof mixId !== 'string') return invalidMediaLink();
    if (!mediaLinks.verify(token, { memberId: user.id, sessionIdHash, mixId, purpose })) return invalidMediaLink();
    return mediaLinkDenial(purpose, user);
  }

  /**
   * Responses that may carry member data are never stored by a browser or proxy cache: any answer to
   * a signed-in request, of a non-public route, to a write (sign-in, registration...), or that sets a
   * cookie. Files marked `public` (the web build's assets, identical for everyone) keep their caching.
   * Unmatched URLs answer the same to everyone; the 404 handler marks its API answers `no-store` itself.
   */
  function noStoreHook(policy: AccessPolicy): onSendHookHandler {
    const nonPublic = policy.kind !== 'public';
    return (req, reply, payload, done) => {
      const personal = nonPublic || req.user !== null || (req.method !== 'GET' && req.method !== 'HEAD') || reply.hasHeader('set-cookie');
      if (personal && !String(reply.getHeader('cache-control') ?? '').includes('public')) {
        reply.header('cache-control', 'no-store');
        reply.removeHeader('expires');
        reply.removeHeader('pragma');
      }
      done(null, payload);
    };
  }
});

/** A route option's hooks as a list (Fastify takes one function or an array). */
export function hookList<T>(hooks: T | T[] | undefined): T[] {
  if (hooks === undefined) return [];
  return Array.isArray(hooks) ? hooks : [hooks];
}

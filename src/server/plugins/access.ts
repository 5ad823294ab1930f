import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import fp from 'fastify-plugin';
import { meetsTier } from '../../contracts/tier-policy';
import type { Tier } from '../../contracts/tiers';
import type { UserRow } from '../db/schema';
import { type AppError, forbidden, unauthorized } from '../lib/errors';
import { findSessionUser, SESSION_COOKIE, SESSION_TTL_MS, createSession, deleteSession, type SessionMeta } from '../lib/sessions';

/**
 * The one access mechanism (docs/decisions/0003-one-access-policy.md): every route declares `config.access`,
 * and the hook below enforces it. Routes without a policy are refused at registration.
 */
export type AccessPolicy =
  | { kind: 'public' }
  | { kind: 'member' }
  | { kind: 'tier'; tier: Tier }
  | { kind: 'admin' }
  /** An admin session, or `Authorization: Bearer <token>` with the token of that config variable (machines). */
  | { kind: 'admin'; bearer: BearerTokenVar };

/** Config variables that hold a bearer token a route may accept in place of an admin session. */
export type BearerTokenVar = 'METRICS_TOKEN';

export const access = {
  public: { kind: 'public' },
  member: { kind: 'member' },
  admin: { kind: 'admin' },
  tier: (tier: Tier): AccessPolicy => ({ kind: 'tier', tier }),
  adminOrBearer: (bearer: BearerTokenVar): AccessPolicy => ({ kind: 'admin', bearer }),
} as const satisfies Record<string, AccessPolicy | ((t: Tier) => AccessPolicy) | ((b: BearerTokenVar) => AccessPolicy)>;

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: AccessPolicy;
    /**
     * The answer is the same for every visitor and never reads the session, so the session is not looked
     * up: no database query per request, and the route keeps answering from its cache while the database is away.
     */
    sharedAnswer?: boolean;
  }
  interface FastifyInstance {
    /** Every registered route with its policy, for the test that walks them. */
    routePolicies: RoutePolicy[];
  }
  interface FastifyRequest {
    /** The signed-in member, or null. Set before any handler runs. */
    user: UserRow | null;
    sessionIdHash: string | null;
  }
  interface FastifyReply {
    /** Start a fresh session for `userId` (drops the current one) and set the cookie. */
    signIn(userId: string): Promise<void>;
    /** End the current session and clear the cookie. */
    signOut(): Promise<void>;
  }
}

export interface RoutePolicy {
  method: string;
  url: string;
  access: AccessPolicy;
  /** The route's input schemas as registered (the hostile-input suite generates its bodies from them). */
  schema: Pick<FastifySchema, 'body' | 'querystring' | 'params'>;
  sharedAnswer: boolean;
}

/** Why `user` may not use a route with `policy`, or undefined when it may. No policy means no access. */
export function denial(policy: AccessPolicy | undefined, user: UserRow | null): AppError | undefined {
  if (!policy) return forbidden('This route declares no access policy', 'no_policy');
  if (policy.kind === 'public') return undefined;
  if (!user) return unauthorized();
  if (policy.kind === 'member') return undefined;
  if (policy.kind === 'admin') return user.isAdmin ? undefined : forbidden('Admin privileges required', 'admin_required');
  return meetsTier(user, policy.tier)
    ? undefined
    : forbidden(`This needs an active ${policy.tier.toUpperCase()} subscription`, 'tier_required');
}

export function describePolicy(p: AccessPolicy): string {
  if (p.kind === 'tier') return `tier:${p.tier}`;
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
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const policy = route.config?.access;
    if (!policy) {
      throw new Error(`Route ${methods.join(',')} ${route.url} declares no access policy (config.access)`);
    }
    for (const m of methods) {
      const schema = { body: route.schema?.body, querystring: route.schema?.querystring, params: route.schema?.params };
      const sharedAnswer = route.config?.sharedAnswer === true;
      if (m !== 'HEAD') app.routePolicies.push({ method: m, url: route.url, access: policy, schema, sharedAnswer });
    }
  });

  const cookieOptions = () => ({
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: app.config.secureCookies,
    maxAge: Math.floor(SESSION_TTL_MS / 1000),
  });

  app.decorateReply('signIn', async function signIn(this: FastifyReply, userId: string) {
    const req = this.request;
    if (req.sessionIdHash) await deleteSession(db, req.sessionIdHash);
    const meta: SessionMeta = { ip: req.ip, userAgent: req.headers['user-agent'] };
    const token = await createSession(db, userId, meta);
    this.setCookie(SESSION_COOKIE, token, cookieOptions());
  });

  app.decorateReply('signOut', async function signOut(this: FastifyReply) {
    const req = this.request;
    if (req.sessionIdHash) await deleteSession(db, req.sessionIdHash);
    req.user = null;
    req.sessionIdHash = null;
    this.clearCookie(SESSION_COOKIE, { path: '/' });
  });

  /**
   * The policy is enforced right after the session lookup, in onRequest: before the body is read or
   * parsed, so a visitor without access costs no parsing and learns nothing about a route's inputs.
   * Unmatched URLs (the 404 handler) have no route and so no policy; they answer 404 whoever asks.
   */
  const enforce = (req: FastifyRequest, done: (err?: Error) => void) => {
    if (req.is404) return done();
    const policy = req.routeOptions.config.access;
    if (policy?.kind === 'admin' && 'bearer' in policy && bearerMatches(req.headers.authorization, app.config[policy.bearer])) {
      return done();
    }
    done(denial(policy, req.user));
  };

  // Requests without a session cookie (most public reads) pass without touching the database.
  app.addHook('onRequest', (req: FastifyRequest, _reply, done) => {
    const token = req.cookies[SESSION_COOKIE];
    if (!token || token.length > 128 || req.routeOptions.config.sharedAnswer) return enforce(req, done);
    findSessionUser(db, token).then((found) => {
      if (found) {
        req.user = found.user;
        req.sessionIdHash = found.idHash;
      }
      enforce(req, done);
    }, done);
  });

  /**
   * Responses that may carry member data are never stored by a browser or proxy cache: any answer to
   * a signed-in request, of a non-public route, to a write (sign-in, registration...), or that sets a
   * cookie. Files marked `public` (the web build's assets, identical for everyone) keep their caching.
   */
  app.addHook('onSend', (req: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, payload: unknown) => void) => {
    const policy = req.routeOptions.config.access;
    const personal =
      req.user !== null ||
      (policy !== undefined && policy.kind !== 'public') ||
      (req.method !== 'GET' && req.method !== 'HEAD') ||
      reply.hasHeader('set-cookie');
    if (personal && !String(reply.getHeader('cache-control') ?? '').includes('public')) {
      reply.header('cache-control', 'no-store');
      reply.removeHeader('expires');
      reply.removeHeader('pragma');
    }
    done(null, payload);
  });
});

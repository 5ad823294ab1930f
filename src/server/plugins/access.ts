import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { meetsTier } from '../../contracts/tier-policy';
import type { Tier } from '../../contracts/tiers';
import type { UserRow } from '../db/schema';
import { type AppError, forbidden, unauthorized } from '../lib/errors';
import { ADMIN_SESSION_MAX_MS, createSession, deleteSession, findSessionUser, MEMBER_SESSION_MAX_MS, sessionCookieName, type SessionMeta } from '../lib/sessions';

/**
 * The one access mechanism (docs/decisions/0003-one-access-policy.md): every route declares `config.access`,
 * and the hook below enforces it. Routes without a policy are refused at registration.
 */
export type AccessPolicy =
  | { kind: 'public' }
  | { kind: 'member' }
  | { kind: 'tier'; tier: Tier }
  | { kind: 'admin' };

export const access = {
  public: { kind: 'public' },
  member: { kind: 'member' },
  admin: { kind: 'admin' },
  tier: (tier: Tier): AccessPolicy => ({ kind: 'tier', tier }),
} as const satisfies Record<string, AccessPolicy | ((t: Tier) => AccessPolicy)>;

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: AccessPolicy;
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
}

/** Why `user` may not use a route with `policy`, or undefined when it may. */
export function denial(policy: AccessPolicy | undefined, user: UserRow | null): AppError | undefined {
  if (!policy || policy.kind === 'public') return undefined;
  if (!user) return unauthorized();
  if (policy.kind === 'member') return undefined;
  if (policy.kind === 'admin') return user.isAdmin ? undefined : forbidden('Admin privileges required', 'admin_required');
  return meetsTier(user, policy.tier)
    ? undefined
    : forbidden(`This needs an active ${policy.tier.toUpperCase()} subscription`, 'tier_required');
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
      if (m !== 'HEAD') app.routePolicies.push({ method: m, url: route.url, access: policy });
    }
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

  // Requests without a session cookie (most public reads) pass without touching the database.
  app.addHook('onRequest', (req: FastifyRequest, _reply, done) => {
    const token = req.cookies[cookieName];
    if (!token || token.length > 128) return done();
    findSessionUser(db, token).then((found) => {
      if (found) {
        req.user = found.user;
        req.sessionIdHash = found.idHash;
      }
      done();
    }, done);
  });

  // Before body validation, so visitors without access learn nothing about a route's inputs.
  app.addHook('preValidation', (req: FastifyRequest, _reply, done) => {
    done(denial(req.routeOptions.config.access, req.user));
  });
});

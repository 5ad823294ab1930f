import { and, count, eq, gt, inArray, lt, ne, notInArray, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { authTokens, sessions, users, type AuthTokenKind, type SessionRow, type UserRow } from '../db/schema';
import { hashToken, randomToken } from './tokens';
import { DAY_MS, HOUR_MS } from '../../contracts/time';

export const SESSION_COOKIE = 'dhr_session';
/**
 * On https the cookie carries the `__Host-` prefix: the browser then insists on Secure, Path=/ and no
 * Domain, so no sibling subdomain can plant or overwrite it.
 */
export const SECURE_SESSION_COOKIE = '__Host-dhr_session';
export const sessionCookieName = (secure: boolean) => (secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE);

/** A session unused this long ends; each use slides it forward. */
export const SESSION_TTL_MS = 14 * DAY_MS;
/** However much it is used, a session ends this long after sign-in: 30 days, 12 hours for admins (ADR 0013). */
export const MEMBER_SESSION_MAX_MS = 30 * DAY_MS;
export const ADMIN_SESSION_MAX_MS = 12 * HOUR_MS;
/** How often a used session's expiry moves forward (saves a write per request). */
const TOUCH_EVERY_MS = HOUR_MS;

export interface SessionMeta {
  ip?: string | undefined;
  userAgent?: string | undefined;
}

/** Creates a session row and returns the raw id for the cookie (only its hash is stored). */
export async function createSession(db: Db, userId: string, meta: SessionMeta = {}): Promise<string> {
  const token = randomToken();
  await db.insert(sessions).values({
    idHash: hashToken(token),
    userId,
    expiresAt: new Date(Date.now() + SESSION_TTL_MS),
    ip: meta.ip ?? null,
    userAgent: meta.userAgent?.slice(0, 300) ?? null,
  });
  return token;
}

/**
 * The signed-in member behind a cookie. The one read of `users` outside the members repository:
 * joined here so that a signed-in request costs one query.
 */
export async function findSessionUser(db: Db, token: string): Promise<{ user: UserRow; idHash: string } | null> {
  const idHash = hashToken(token);
  const now = new Date();
  const rows = await db
    .select({ user: users, lastSeenAt: sessions.lastSeenAt, createdAt: sessions.createdAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.idHash, idHash), gt(sessions.expiresAt, now)))
    .limit(1);
  const row = rows[0];
  if (!row) return null;
  // The absolute end follows the member's current rights: a member made admin keeps 12 hours at most.
  const endsAt = row.createdAt.getTime() + (row.user.isAdmin ? ADMIN_SESSION_MAX_MS : MEMBER_SESSION_MAX_MS);
  if (now.getTime() >= endsAt) {
    await deleteSession(db, idHash);
    return null;
  }
  if (now.getTime() - row.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
    await db
      .update(sessions)
      .set({ lastSeenAt: now, expiresAt: new Date(Math.min(now.getTime() + SESSION_TTL_MS, endsAt)) })
      .where(eq(sessions.idHash, idHash));
  }
  return { user: row.user, idHash };
}

export async function findSession(db: Db, idHash: string): Promise<SessionRow | null> {
  const rows = await db.select().from(sessions).where(eq(sessions.idHash, idHash)).limit(1);
  return rows[0] ?? null;
}

/** The member's sessions that have not expired. */
export async function countActiveSessions(db: Db, userId: string, now: Date = new Date()): Promise<number> {
  const rows = await db
    .select({ n: count() })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, now)));
  return Number(rows[0]?.n ?? 0);
}

export async function deleteSession(db: Db, idHash: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.idHash, idHash));
}

/** What changed a member's credentials; each says which of their sessions end with it. */
export type CredentialEvent =
  | 'email_changed_by_member'
  | 'email_changed_by_admin'
  | 'password_reset'
  | 'password_set'
  | 'password_changed'
  | 'signed_out_everywhere'
  | 'sessions_revoked'
  | 'access_changed'
  | 'admin_granted'
  | 'admin_removed'
  | 'email_proven_by_link'
  | 'deleted';

/**
 * 'all': every session; 'others': all but the one the member made the change in (none kept when the
 * change came from a link opened without a session); 'none': sessions stay (a tier change: the
 * session reads the member row on every request).
 */
// A ban from comments and chat is not among them: the member keeps listening and signing in; the ban
// is read on every post (comment-rules.ts activeBan), so nothing needs to end.
const SESSIONS_ENDING: Record<CredentialEvent, 'all' | 'others' | 'none'> = {
  email_changed_by_member: 'others',
  email_changed_by_admin: 'all',
  password_reset: 'all',
  password_set: 'others',
  password_changed: 'others',
  signed_out_everywhere: 'others',
  sessions_revoked: 'all',
  access_changed: 'none',
  admin_granted: 'all',
  admin_removed: 'all',
  email_proven_by_link: 'others',
  deleted: 'all',
};

/** Tokens that stay: a Connect Patreon state is bound to its session (it ends with it) and proves nothing about the account. */
const TOKENS_KEPT: AuthTokenKind[] = ['oauth_state'];

/**
 * The one place a member's credentials change (docs/security.md, "Sessions and links end together").
 * Call it inside the transaction of the change: it deletes every outstanding token of the member
 * (sign-in links, codes, reset, verification, deletion and email-change links, whether they name the
 * member or were mailed to `emails`, their current address by default) and the sessions the event ends.
 */
export async function credentialsChanged(
  db: Db,
  userId: string,
  event: CredentialEvent,
  opts: { keepSession?: string | undefined; emails?: string[] } = {},
): Promise<void> {
  const current = db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  const mailedTo = or(
    eq(authTokens.userId, userId),
    inArray(authTokens.email, current),
    ...(opts.emails?.length ? [inArray(authTokens.email, opts.emails)] : []),
  );
  await db.delete(authTokens).where(and(mailedTo, notInArray(authTokens.kind, TOKENS_KEPT)));
  const ending = SESSIONS_ENDING[event];
  if (ending === 'none') return;
  const keep = ending === 'others' ? opts.keepSession : undefined;
  await db.delete(sessions).where(keep ? and(eq(sessions.userId, userId), ne(sessions.idHash, keep)) : eq(sessions.userId, userId));
}

export async function deleteExpiredSessions(db: Db): Promise<void> {
  await db.delete(sessions).where(lt(sessions.expiresAt, new Date()));
}

/**
 * Sessions older than `before` keep only the network of the address they were opened from: a /24 for
 * IPv4, a /48 for IPv6 (the privacy retention job).
 */
export async function truncateSessionAddresses(db: Db, before: Date): Promise<void> {
  await db.execute(sql`
    update ${sessions} set ip = case
      when ip ~ '^[0-9]{1,3}(\\.[0-9]{1,3}){3}$' then regexp_replace(ip, '\\.[0-9]{1,3}$', '.0')
      when ip ~ '^[0-9a-fA-F:.]+$' and position(':' in ip) > 0 then host(network(set_masklen(ip::inet, 48)))
      else null end
    where ${sessions.createdAt} < ${before} and ip is not null`);
}

/** A member's open sessions, newest first (their data export). */
export async function sessionsOf(db: Db, userId: string): Promise<SessionRow[]> {
  return db
    .select()
    .from(sessions)
    .where(eq(sessions.userId, userId))
    .orderBy(sql`${sessions.createdAt} desc`);
}

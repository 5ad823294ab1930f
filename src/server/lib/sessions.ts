import { and, count, eq, gt, lt } from 'drizzle-orm';
import type { Db } from '../db/client';
import { sessions, users, type SessionRow, type UserRow } from '../db/schema';
import { hashToken, randomToken } from './tokens';
import { DAY_MS, HOUR_MS } from '../../contracts/time';

export const SESSION_COOKIE = 'dhr_session';
/** Sessions last 30 days and slide forward while used. */
export const SESSION_TTL_MS = 30 * DAY_MS;
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
    .select({ user: users, lastSeenAt: sessions.lastSeenAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.idHash, idHash), gt(sessions.expiresAt, now)))
    .limit(1);
  const row = rows[0];
  if (!row) return null;
  if (now.getTime() - row.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
    await db
      .update(sessions)
      .set({ lastSeenAt: now, expiresAt: new Date(now.getTime() + SESSION_TTL_MS) })
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

export async function deleteUserSessions(db: Db, userId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.userId, userId));
}

export async function deleteExpiredSessions(db: Db): Promise<void> {
  await db.delete(sessions).where(lt(sessions.expiresAt, new Date()));
}

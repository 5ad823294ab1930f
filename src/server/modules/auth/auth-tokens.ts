import { randomInt } from 'node:crypto';
import { and, desc, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { authTokens, type AuthTokenKind, type AuthTokenRow } from '../../db/schema';
import { hashToken, randomToken, safeEqual } from '../../lib/tokens';
import { DAY_MS, MINUTE_MS } from '../../../contracts/time';

/** Token lifetimes (links <= 15 min; codes 10 min, 5 tries: docs/decisions/0007-accounts-sign-in-and-rate-limits.md). */
export const LOGIN_LINK_TTL_MS = 15 * MINUTE_MS;
export const RESET_LINK_TTL_MS = 30 * MINUTE_MS;
export const CODE_TTL_MS = 10 * MINUTE_MS;
export const CODE_MAX_TRIES = 5;

/** Issues a one-time link secret (256 random bits); only its hash is stored. Older unused ones of the same kind end. */
export async function issueLinkToken(
  db: Db,
  kind: Extract<AuthTokenKind, 'login_link' | 'password_reset'>,
  email: string,
  userId: string | null,
): Promise<string> {
  const token = randomToken();
  const ttl = kind === 'login_link' ? LOGIN_LINK_TTL_MS : RESET_LINK_TTL_MS;
  await db.transaction(async (tx) => {
    await retireOpen(tx, kind, email);
    await tx.insert(authTokens).values({
      kind,
      email,
      userId,
      tokenHash: hashToken(token),
      expiresAt: new Date(Date.now() + ttl),
    });
  });
  return token;
}

/** Marks a link used and returns its row, or null when it is unknown, used or expired. Single use even under races. */
export async function consumeLinkToken(
  db: Db,
  kind: Extract<AuthTokenKind, 'login_link' | 'password_reset'>,
  token: string,
): Promise<AuthTokenRow | null> {
  const now = new Date();
  const rows = await db
    .update(authTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(authTokens.tokenHash, hashToken(token)),
        eq(authTokens.kind, kind),
        isNull(authTokens.usedAt),
        gt(authTokens.expiresAt, now),
      ),
    )
    .returning();
  return rows[0] ?? null;
}

/** Issues a 6-digit code for setting a password; a new code replaces any earlier one. */
export async function issueCode(db: Db, email: string, userId: string): Promise<string> {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await db.transaction(async (tx) => {
    await retireOpen(tx, 'password_code', email);
    await tx.insert(authTokens).values({
      kind: 'password_code',
      email,
      userId,
      // The row id is not known yet, so the code hash is salted with a random value kept alongside.
      tokenHash: codeHash(email, code, randomToken()),
      expiresAt: new Date(Date.now() + CODE_TTL_MS),
    });
  });
  return code;
}

function codeHash(email: string, code: string, salt: string): string {
  return `${salt}.${hashToken(`${salt}:${email}:${code}`)}`;
}

function codeMatches(stored: string, email: string, code: string): boolean {
  const salt = stored.split('.')[0] ?? '';
  return safeEqual(codeHash(email, code, salt), stored);
}

export type CodeCheck = { ok: true; row: AuthTokenRow } | { ok: false; reason: 'invalid' | 'expired' };

/**
 * Checks the code for `email`. A wrong code uses up one of its tries; after CODE_MAX_TRIES the code
 * is dead. With `consume` a right code is marked used (the password step); without it, it stays valid.
 */
export async function checkCode(db: Db, email: string, code: string, consume: boolean): Promise<CodeCheck> {
  const now = new Date();
  const rows = await db
    .select()
    .from(authTokens)
    .where(and(eq(authTokens.kind, 'password_code'), eq(authTokens.email, email), isNull(authTokens.usedAt)))
    .orderBy(desc(authTokens.createdAt))
    .limit(1);
  const row = rows[0];
  if (!row || row.expiresAt.getTime() <= now.getTime() || row.attempts >= CODE_MAX_TRIES) return { ok: false, reason: 'expired' };
  if (!codeMatches(row.tokenHash, email, code)) {
    // Counted atomically so parallel guesses cannot exceed the tries.
    const updated = await db
      .update(authTokens)
      .set({ attempts: sql`${authTokens.attempts} + 1` })
      .where(and(eq(authTokens.id, row.id), lt(authTokens.attempts, CODE_MAX_TRIES)))
      .returning({ attempts: authTokens.attempts });
    const attempts = updated[0]?.attempts ?? CODE_MAX_TRIES;
    return { ok: false, reason: attempts >= CODE_MAX_TRIES ? 'expired' : 'invalid' };
  }
  if (!consume) return { ok: true, row };
  const used = await db
    .update(authTokens)
    .set({ usedAt: now })
    .where(and(eq(authTokens.id, row.id), isNull(authTokens.usedAt), lt(authTokens.attempts, CODE_MAX_TRIES)))
    .returning();
  const usedRow = used[0];
  return usedRow ? { ok: true, row: usedRow } : { ok: false, reason: 'expired' };
}

async function retireOpen(db: Db, kind: AuthTokenKind, email: string): Promise<void> {
  await db
    .update(authTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(authTokens.kind, kind), eq(authTokens.email, email), isNull(authTokens.usedAt)));
}

/** Housekeeping: drops tokens that can no longer be used. */
export async function deleteDeadTokens(db: Db): Promise<void> {
  const dayAgo = new Date(Date.now() - DAY_MS);
  await db.delete(authTokens).where(or(lt(authTokens.expiresAt, dayAgo), lt(authTokens.usedAt, dayAgo)));
}

import { randomInt } from 'node:crypto';
import { and, desc, eq, gt, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { authTokens, type AuthTokenKind, type AuthTokenRow } from '../../db/schema';
import { hashToken, randomToken, safeEqual } from '../../lib/tokens';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../../../contracts/time';

/** Token lifetimes (links <= 15 min; codes 10 min, 5 tries: docs/decisions/0007-accounts-sign-in-and-rate-limits.md). */
export const LOGIN_LINK_TTL_MS = 15 * MINUTE_MS;
export const RESET_LINK_TTL_MS = 30 * MINUTE_MS;
/** A new account's verification link; a sign-in link also verifies, so an expired one costs little. */
export const VERIFY_LINK_TTL_MS = 24 * HOUR_MS;
export const CODE_TTL_MS = 10 * MINUTE_MS;
/** An emailed confirmation of deleting an account: fresh, like a sign-in link. */
export const ACCOUNT_DELETE_TTL_MS = 30 * MINUTE_MS;
/** A confirmation link sent to a new address. */
export const EMAIL_CHANGE_TTL_MS = 24 * HOUR_MS;
export const CODE_MAX_TRIES = 5;

export type LinkKind = Extract<AuthTokenKind, 'login_link' | 'password_reset' | 'email_verify' | 'account_delete' | 'email_change' | 'email_change_old'>;
/** Codes mailed to prove an email: signing in, setting a password, claiming a Buy Me a Coffee payment. */
export type CodeKind = Extract<AuthTokenKind, 'login_code' | 'password_code' | 'payer_claim'>;

const LINK_TTL_MS: Record<LinkKind, number> = {
  login_link: LOGIN_LINK_TTL_MS,
  password_reset: RESET_LINK_TTL_MS,
  email_verify: VERIFY_LINK_TTL_MS,
  account_delete: ACCOUNT_DELETE_TTL_MS,
  email_change: EMAIL_CHANGE_TTL_MS,
  email_change_old: EMAIL_CHANGE_TTL_MS,
};

/** Issues a one-time link secret (256 random bits); only its hash is stored. Older unused ones of the same kind end. */
export async function issueLinkToken(db: Db, kind: LinkKind, email: string, userId: string | null): Promise<string> {
  const token = randomToken();
  const ttl = LINK_TTL_MS[kind];
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
export function consumeLinkToken(db: Db, kind: LinkKind, token: string): Promise<AuthTokenRow | null> {
  return consumeHash(db, kind, hashToken(token));
}

const EMAIL_CHANGE_KINDS: AuthTokenKind[] = ['email_change', 'email_change_old'];

/**
 * The links of one email change: one to the new address, and for a member without a password one to
 * the current address too (the move then needs both). Any earlier pending change of the member ends.
 * The pair shares its creation time (one transaction), which is how a confirmation finds its partner.
 */
export async function issueEmailChangeLinks(
  db: Db,
  userId: string,
  addresses: { current: string; next: string },
  fromCurrentToo: boolean,
): Promise<{ toNext: string; toCurrent?: string }> {
  const toNext = randomToken();
  const toCurrent = fromCurrentToo ? randomToken() : undefined;
  const expiresAt = new Date(Date.now() + EMAIL_CHANGE_TTL_MS);
  await db.transaction(async (tx) => {
    await tx.delete(authTokens).where(and(eq(authTokens.userId, userId), inArray(authTokens.kind, EMAIL_CHANGE_KINDS)));
    const createdAt = new Date();
    await tx
      .insert(authTokens)
      .values([
        { kind: 'email_change', email: addresses.next, userId, tokenHash: hashToken(toNext), expiresAt, createdAt },
        ...(toCurrent ? [{ kind: 'email_change_old' as const, email: addresses.current, userId, tokenHash: hashToken(toCurrent), expiresAt, createdAt }] : []),
      ]);
  });
  return toCurrent ? { toNext, toCurrent } : { toNext };
}

/**
 * Uses up one link of an email change, inside the caller's transaction, and answers it with its
 * partner (null when the change needs one link only). Both rows are locked in id order first, so two
 * links confirmed at once see each other's use.
 */
export async function consumeEmailChangeLink(tx: Db, token: string): Promise<{ row: AuthTokenRow; partner: AuthTokenRow | null } | null> {
  const now = new Date();
  const found = (
    await tx
      .select()
      .from(authTokens)
      .where(and(eq(authTokens.tokenHash, hashToken(token)), inArray(authTokens.kind, EMAIL_CHANGE_KINDS)))
      .limit(1)
  )[0];
  if (!found?.userId) return null;
  const pair = await tx
    .select()
    .from(authTokens)
    .where(and(eq(authTokens.userId, found.userId), eq(authTokens.createdAt, found.createdAt), inArray(authTokens.kind, EMAIL_CHANGE_KINDS)))
    .orderBy(authTokens.id)
    .for('update');
  const row = pair.find((r) => r.id === found.id);
  if (!row || row.usedAt || row.expiresAt.getTime() <= now.getTime()) return null;
  await tx.update(authTokens).set({ usedAt: now }).where(eq(authTokens.id, row.id));
  return { row: { ...row, usedAt: now }, partner: pair.find((r) => r.id !== row.id) ?? null };
}

/** Lifetime of Connect Patreon's OAuth state: the member is on Patreon's consent page meanwhile. */
export const OAUTH_STATE_TTL_MS = 10 * MINUTE_MS;

/**
 * Issues the OAuth `state` for Connect Patreon, bound to the session: only the hash of state + the
 * session's id hash is stored, so the state is worthless from any other session (CSRF, a leaked URL).
 */
export async function issueSessionBoundState(db: Db, email: string, userId: string, sessionIdHash: string): Promise<string> {
  const state = randomToken();
  await db.transaction(async (tx) => {
    // One pending connect per member: an older consent page's state stops working.
    await retireOpen(tx, 'oauth_state', email);
    await tx.insert(authTokens).values({
      kind: 'oauth_state',
      email,
      userId,
      tokenHash: hashToken(`${state}:${sessionIdHash}`),
      expiresAt: new Date(Date.now() + OAUTH_STATE_TTL_MS),
    });
  });
  return state;
}

/** Uses up the state if this session issued it and it is live; null otherwise. */
export function consumeSessionBoundState(db: Db, state: string, sessionIdHash: string): Promise<AuthTokenRow | null> {
  return consumeHash(db, 'oauth_state', hashToken(`${state}:${sessionIdHash}`));
}

async function consumeHash(db: Db, kind: AuthTokenKind, tokenHash: string): Promise<AuthTokenRow | null> {
  const now = new Date();
  const rows = await db
    .update(authTokens)
    .set({ usedAt: now })
    .where(and(eq(authTokens.tokenHash, tokenHash), eq(authTokens.kind, kind), isNull(authTokens.usedAt), gt(authTokens.expiresAt, now)))
    .returning();
  return rows[0] ?? null;
}

/** The live link's row without using it up (the sign-in page shows whose account it opens), or null. */
export async function peekLinkToken(db: Db, kind: LinkKind, token: string): Promise<AuthTokenRow | null> {
  const rows = await db
    .select()
    .from(authTokens)
    .where(and(eq(authTokens.tokenHash, hashToken(token)), eq(authTokens.kind, kind), isNull(authTokens.usedAt), gt(authTokens.expiresAt, new Date())))
    .limit(1);
  return rows[0] ?? null;
}

/**
 * Issues a 6-digit code (setting a password by default); a new code replaces any earlier one for the
 * email. Only a salted hash is stored; it lives CODE_TTL_MS and dies after CODE_MAX_TRIES wrong guesses.
 */
export async function issueCode(db: Db, email: string, userId: string | null, kind: CodeKind = 'password_code'): Promise<string> {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await db.transaction(async (tx) => {
    await retireOpen(tx, kind, email);
    await tx.insert(authTokens).values({
      kind,
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
export async function checkCode(db: Db, email: string, code: string, consume: boolean, kind: CodeKind = 'password_code'): Promise<CodeCheck> {
  const now = new Date();
  const rows = await db
    .select()
    .from(authTokens)
    .where(and(eq(authTokens.kind, kind), eq(authTokens.email, email), isNull(authTokens.usedAt)))
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

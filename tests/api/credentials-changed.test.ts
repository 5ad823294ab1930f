import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES } from '../../src/contracts/account';
import { authTokens, users } from '../../src/server/db/schema';
import { createSession, SESSION_COOKIE } from '../../src/server/lib/sessions';
import { issueLinkToken } from '../../src/server/modules/auth/auth-tokens';
import { hashPassword } from '../../src/server/modules/auth/passwords';
import { createMember, createTestApp, memberWithRole } from '../support/app';
import { freshEmail, freshIp } from '../support/auth-client';
import { lastMailTo, linkIn, tempDataDir, tokenIn } from '../support/outbox';

/**
 * Sessions and links end together (docs/security.md): every change of a member's credentials goes
 * through credentialsChanged, which deletes their outstanding tokens and the sessions the event ends;
 * sign-in and reset links work only while the account has the address they were mailed to.
 */
describe('credentials changed: sessions and links end together', async () => {
  const dataDir = tempDataDir();
  const app = await createTestApp({ DATA_DIR: dataDir });
  const { db } = app.database;
  const PASSWORD = 'deep-house-1';

  async function send(url: string, cookie?: string, payload?: object, method: 'POST' | 'GET' | 'DELETE' = 'POST') {
    const res = await app.inject({ method, url, remoteAddress: freshIp(), headers: cookie ? { cookie } : {}, ...(payload ? { payload } : {}) });
    await app.mailer.idle();
    return res;
  }
  const emailOf = async (id: string) => (await db.select().from(users).where(eq(users.id, id)))[0]?.email;
  const me = async (cookie: string) => (await send('/api/auth/me', cookie, undefined, 'GET')).statusCode;

  it('after an email change, sign-in and reset links mailed to the old address are refused (deleted, and bound to the address)', async () => {
    const m = await createMember(app, { passwordHash: await hashPassword(PASSWORD) });
    const oldEmail = m.user.email;
    await send('/api/auth/simple-login', undefined, { email: oldEmail });
    const signInToken = tokenIn(linkIn(lastMailTo(dataDir, oldEmail), '/simple-auth/link'));
    await send('/api/auth/forgot-password', undefined, { email: oldEmail });
    const resetToken = tokenIn(linkIn(lastMailTo(dataDir, oldEmail), '/reset-password'));
    const other = `${SESSION_COOKIE}=${await createSession(db, m.user.id)}`;

    const newEmail = freshEmail('moved');
    expect((await send('/api/me/email', m.cookie, { newEmail, password: PASSWORD })).statusCode).toBe(200);
    const change = tokenIn(linkIn(lastMailTo(dataDir, newEmail), '/account/email'));
    const confirmed = await send('/api/me/email/confirm', m.cookie, { token: change });
    expect(confirmed.statusCode).toBe(200);
    expect(await emailOf(m.user.id)).toBe(newEmail);
    // The session that confirmed stays; the member's other sessions end.
    expect(await me(m.cookie)).toBe(200);
    expect(await me(other)).toBe(401);
    expect(await db.select().from(authTokens).where(eq(authTokens.userId, m.user.id))).toHaveLength(0);
    const hashBefore = (await db.select().from(users).where(eq(users.id, m.user.id)))[0]?.passwordHash;

    expect((await send('/api/auth/magic', undefined, { token: signInToken })).statusCode).toBe(400);
    expect((await send('/api/auth/reset-password', undefined, { token: resetToken, password: 'taken-over-9' })).statusCode).toBe(400);

    // Even a live link row naming the member, mailed to the old address, opens nothing now.
    const lateSignIn = await issueLinkToken(db, 'login_link', oldEmail, m.user.id);
    const lateReset = await issueLinkToken(db, 'password_reset', oldEmail, m.user.id);
    expect((await send('/api/auth/magic', undefined, { token: lateSignIn })).statusCode).toBe(400);
    expect((await send('/api/auth/reset-password', undefined, { token: lateReset, password: 'taken-over-9' })).statusCode).toBe(400);
    const [row] = await db.select().from(users).where(eq(users.id, m.user.id));
    expect(row?.passwordHash).toBe(hashBefore);
    expect(await me(m.cookie)).toBe(200);
  });

  it('moving a passwordless account needs the link from the old address as well as the new one', async () => {
    const m = await createMember(app);
    const oldEmail = m.user.email;
    const newEmail = freshEmail('thief');
    const asked = await send('/api/me/email', m.cookie, { newEmail });
    expect(asked.statusCode).toBe(200);
    expect(asked.json().message).toBe(ACCOUNT_MESSAGES.emailChangeSentBoth);
    const toNew = tokenIn(linkIn(lastMailTo(dataDir, newEmail), '/account/email'));
    const toOld = tokenIn(linkIn(lastMailTo(dataDir, oldEmail), '/account/email'));

    // A stolen session and the attacker's own inbox are not enough.
    const half = await send('/api/me/email/confirm', undefined, { token: toNew });
    expect(half.statusCode).toBe(200);
    expect(half.json().message).toBe(ACCOUNT_MESSAGES.emailChangeHalfConfirmed);
    expect(await emailOf(m.user.id)).toBe(oldEmail);
    expect((await send('/api/me/email/confirm', undefined, { token: toNew })).statusCode).toBe(400);
    expect(await emailOf(m.user.id)).toBe(oldEmail);

    const done = await send('/api/me/email/confirm', undefined, { token: toOld });
    expect(done.statusCode).toBe(200);
    expect(done.json().message).toBe(ACCOUNT_MESSAGES.emailChanged);
    expect(await emailOf(m.user.id)).toBe(newEmail);
    // Confirmed without a session: every session ends.
    expect(await me(m.cookie)).toBe(401);
  });

  it('a newer email change request ends the links of the earlier one', async () => {
    const m = await createMember(app);
    const first = freshEmail('first');
    await send('/api/me/email', m.cookie, { newEmail: first });
    const firstToNew = tokenIn(linkIn(lastMailTo(dataDir, first), '/account/email'));
    await send('/api/me/email', m.cookie, { newEmail: freshEmail('second') });
    const secondToOld = tokenIn(linkIn(lastMailTo(dataDir, m.user.email), '/account/email'));
    expect((await send('/api/me/email/confirm', undefined, { token: firstToNew })).statusCode).toBe(400);
    expect((await send('/api/me/email/confirm', undefined, { token: secondToOld })).json().message).toBe(ACCOUNT_MESSAGES.emailChangeHalfConfirmed);
    expect(await emailOf(m.user.id)).toBe(m.user.email);
  });

  it('a password reset ends every session and every other outstanding link of the member', async () => {
    const m = await createMember(app, { passwordHash: await hashPassword(PASSWORD) });
    await send('/api/auth/simple-login', undefined, { email: m.user.email });
    const signInToken = tokenIn(linkIn(lastMailTo(dataDir, m.user.email), '/simple-auth/link'));
    await send('/api/auth/forgot-password', undefined, { email: m.user.email });
    const resetToken = tokenIn(linkIn(lastMailTo(dataDir, m.user.email), '/reset-password'));
    expect((await send('/api/auth/reset-password', undefined, { token: resetToken, password: 'brand-new-pass-1' })).statusCode).toBe(200);
    expect(await me(m.cookie)).toBe(401);
    expect((await send('/api/auth/magic', undefined, { token: signInToken })).statusCode).toBe(400);
  });

  it("an admin ending a member's sessions ends their outstanding links too", async () => {
    const admin = await memberWithRole(app, 'admin');
    const m = await createMember(app);
    await send('/api/auth/simple-login', undefined, { email: m.user.email });
    const signInToken = tokenIn(linkIn(lastMailTo(dataDir, m.user.email), '/simple-auth/link'));
    expect((await send(`/api/admin/users/${m.user.id}/sessions/revoke`, admin.cookie)).statusCode).toBe(200);
    expect(await me(m.cookie)).toBe(401);
    expect((await send('/api/auth/magic', undefined, { token: signInToken })).statusCode).toBe(400);
  });

  it('a deletion link works only in a session of its member, while the account has the address it was mailed to', async () => {
    const m = await createMember(app);
    const stranger = await createMember(app);
    const token = await issueLinkToken(db, 'account_delete', m.user.email, m.user.id);
    // Without a session: refused before anything is read.
    expect((await send('/api/me', undefined, { token }, 'DELETE')).statusCode).toBe(401);
    // In another member's session: refused, nobody deleted.
    expect((await send('/api/me', stranger.cookie, { token }, 'DELETE')).statusCode).toBe(400);
    // A link row mailed to an address the account no longer has: refused.
    const stale = await issueLinkToken(db, 'account_delete', freshEmail('old-address'), m.user.id);
    expect((await send('/api/me', m.cookie, { token: stale }, 'DELETE')).statusCode).toBe(400);
    expect(await db.select().from(users).where(eq(users.id, m.user.id))).toHaveLength(1);
    expect(await db.select().from(users).where(eq(users.id, stranger.user.id))).toHaveLength(1);
  });
});

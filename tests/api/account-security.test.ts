import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '../../src/contracts/auth';
import { authTokens, users } from '../../src/server/db/schema';
import { createMember, createTestApp } from '../support/app';
import { client, freshEmail, registerAndLogin, sessionCookie } from '../support/auth-client';
import { codeIn, lastMailTo, tempDataDir } from '../support/outbox';

/** A member's own controls: change password, sign out everywhere, and sign-in by the emailed code. */
describe('account security', async () => {
  const dataDir = tempDataDir();
  const app = await createTestApp({ DATA_DIR: dataDir });
  const me = (cookie: string) => app.inject({ url: '/api/auth/me', headers: { cookie } });
  const hashOf = async (id: string) => (await app.database.db.select().from(users).where(eq(users.id, id)))[0]?.passwordHash;

  /** A member signed in twice: the session that acts and another device's. */
  async function twoSessions() {
    const { email, password, cookie, user } = await registerAndLogin(app);
    const other = sessionCookie(await client(app).post('/api/auth/email-login-secure', { email, password }));
    expect((await me(other)).statusCode).toBe(200);
    return { email, password, cookie, other, id: user.id };
  }

  describe('POST /api/auth/change-password', () => {
    const change = (cookie: string, body: unknown) => client(app).post('/api/auth/change-password', body, cookie);

    it('needs the current password; a wrong one changes nothing and ends no session', async () => {
      const m = await twoSessions();
      const before = await hashOf(m.id);
      const wrong = await change(m.cookie, { currentPassword: 'not-it', newPassword: 'brand-new-1' });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().error).toEqual({ code: 'wrong_password', message: AUTH_MESSAGES.currentPasswordWrong });
      expect(await hashOf(m.id)).toBe(before);
      expect((await me(m.other)).statusCode).toBe(200);

      const same = await change(m.cookie, { currentPassword: m.password, newPassword: m.password });
      expect(same.statusCode).toBe(400);
      expect(same.json().message).toContain(AUTH_MESSAGES.samePassword);
      const short = await change(m.cookie, { currentPassword: m.password, newPassword: '123' });
      expect(short.statusCode).toBe(400);
      expect(short.json().message).toContain(AUTH_MESSAGES.passwordTooShort);
      expect(await hashOf(m.id)).toBe(before);
      // Identity comes from the session only.
      expect((await client(app).post('/api/auth/change-password', { currentPassword: m.password, newPassword: 'brand-new-1' })).statusCode).toBe(401);
    });

    it('sets the new password, keeps this session and ends the others and the open links', async () => {
      const m = await twoSessions();
      await client(app).post('/api/auth/simple-login', { email: m.email });
      const ok = await change(m.cookie, { currentPassword: m.password, newPassword: 'brand-new-1' });
      expect(ok.statusCode).toBe(200);
      expect(ok.json().message).toBe(AUTH_MESSAGES.passwordChanged);
      expect((await me(m.cookie)).statusCode).toBe(200);
      expect((await me(m.other)).statusCode).toBe(401);
      expect(await app.database.db.select().from(authTokens).where(eq(authTokens.email, m.email))).toEqual([]);
      expect((await client(app).post('/api/auth/email-login-secure', { email: m.email, password: m.password })).statusCode).toBe(401);
      expect((await client(app).post('/api/auth/email-login-secure', { email: m.email, password: 'brand-new-1' })).statusCode).toBe(200);
    });

    it('tells a member without a password to set one', async () => {
      const m = await createMember(app);
      const res = await change(m.cookie, { currentPassword: 'anything', newPassword: 'brand-new-1' });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(AUTH_MESSAGES.noPasswordYet);
    });

    it('limits guesses of the current password per email', async () => {
      const m = await twoSessions();
      const statuses: number[] = [];
      for (let i = 0; i < 12; i += 1) statuses.push((await change(m.cookie, { currentPassword: `guess-${i}`, newPassword: 'brand-new-1' })).statusCode);
      expect(statuses).toContain(429);
      expect(statuses.filter((s) => s === 400).length).toBeLessThanOrEqual(10);
      // Limited, the right password is refused too until the window passes.
      expect((await change(m.cookie, { currentPassword: m.password, newPassword: 'brand-new-1' })).statusCode).toBe(429);
    });
  });

  it('POST /api/auth/logout-everywhere ends every other session, not this one', async () => {
    const m = await twoSessions();
    const third = sessionCookie(await client(app).post('/api/auth/email-login-secure', { email: m.email, password: m.password }));
    const res = await client(app).post('/api/auth/logout-everywhere', undefined, m.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(AUTH_MESSAGES.signedOutEverywhere);
    expect((await me(m.cookie)).statusCode).toBe(200);
    expect((await me(m.other)).statusCode).toBe(401);
    expect((await me(third)).statusCode).toBe(401);
    expect((await client(app).post('/api/auth/logout-everywhere')).statusCode).toBe(401);
  });

  describe('POST /api/auth/code-login', () => {
    const codeLogin = (email: string, code: string, ip?: string) => client(app, ip).post('/api/auth/code-login', { email, code });
    const askCode = async (email: string) => {
      expect((await client(app).post('/api/auth/simple-login', { email })).statusCode).toBe(200);
      return codeIn(lastMailTo(dataDir, email));
    };
    const wrongFor = (code: string) => (code === '000000' ? '111111' : '000000');

    it('signs in once with the code of the sign-in mail; stored hashed, short-lived, never in a URL', async () => {
      const m = await createMember(app, { subscriptionTier: 'dhr1', subscriptionStatus: 'active' });
      const code = await askCode(m.user.email);
      expect(code).toMatch(/^\d{6}$/);
      const mail = lastMailTo(dataDir, m.user.email);
      expect(mail.raw).not.toMatch(new RegExp(`https?://\\S*${code}`));
      const rows = await app.database.db
        .select()
        .from(authTokens)
        .where(and(eq(authTokens.email, m.user.email), eq(authTokens.kind, 'login_code')));
      expect(rows).toHaveLength(1);
      expect(rows[0]?.tokenHash).not.toContain(code);
      expect((rows[0]?.expiresAt.getTime() ?? 0) - (rows[0]?.createdAt.getTime() ?? 0)).toBeLessThanOrEqual(10 * 60_000 + 1000);

      const wrong = await codeLogin(m.user.email, wrongFor(code));
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().message).toBe(AUTH_MESSAGES.codeInvalid);
      expect(sessionCookie(wrong)).toBe('');
      const ok = await codeLogin(m.user.email, code);
      expect(ok.statusCode).toBe(200);
      expect(ok.json().user.id).toBe(m.user.id);
      expect((await me(sessionCookie(ok))).json().id).toBe(m.user.id);
      const again = await codeLogin(m.user.email, code);
      expect(again.statusCode).toBe(400);
      expect(again.json().message).toBe(AUTH_MESSAGES.codeExpired);
    });

    it('refuses an expired code, an unknown email, a malformed code and an admin', async () => {
      const m = await createMember(app);
      const code = await askCode(m.user.email);
      await app.database.db
        .update(authTokens)
        .set({ expiresAt: new Date(Date.now() - 1) })
        .where(eq(authTokens.email, m.user.email));
      expect((await codeLogin(m.user.email, code)).json().message).toBe(AUTH_MESSAGES.codeExpired);
      expect((await codeLogin(freshEmail('nobody'), '123456')).json().message).toBe(AUTH_MESSAGES.codeExpired);
      const malformed = await codeLogin(m.user.email, '12ab56');
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json().error.code).toBe('validation_error');
      // Admins sign in with their password: their sign-in mail has no code.
      const admin = await createMember(app, { isAdmin: true });
      await client(app).post('/api/auth/simple-login', { email: admin.user.email });
      expect(() => codeIn(lastMailTo(dataDir, admin.user.email))).toThrow();
    });

    it('parallel guesses cannot pass the limit: at most 4 wrong tries are answered, then the code is dead', async () => {
      const m = await createMember(app);
      const code = await askCode(m.user.email);
      const guesses = Array.from({ length: 30 }, (_, i) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'));
      const answers = await Promise.all(guesses.map((g) => codeLogin(m.user.email, g)));
      const invalid = answers.filter((r) => r.statusCode === 400 && r.json().message === AUTH_MESSAGES.codeInvalid).length;
      expect(invalid).toBeLessThanOrEqual(4);
      expect(answers.some((r) => r.statusCode === 429)).toBe(true);
      expect(answers.every((r) => sessionCookie(r) === '')).toBe(true);
      const row = (
        await app.database.db
          .select()
          .from(authTokens)
          .where(and(eq(authTokens.email, m.user.email), eq(authTokens.kind, 'login_code')))
      )[0];
      expect(row?.attempts).toBeLessThanOrEqual(5);
      // The right code, from a fresh network, after the guesses: dead or limited, never a session.
      const late = await codeLogin(m.user.email, code, '192.0.2.200');
      expect([400, 429]).toContain(late.statusCode);
      expect(sessionCookie(late)).toBe('');
    });
  });
});

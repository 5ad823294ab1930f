import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '../../src/contracts/auth';
import { permissionsSchema } from '../../src/contracts/member-schemas';
import { ANONYMOUS_PERMISSIONS } from '../../src/contracts/tier-policy';
import { mixDownloads, sessions, users, vipMixes } from '../../src/server/db/schema';
import { hashPassword } from '../../src/server/modules/auth/passwords';
import { createMember, createTestApp, memberWithRole } from '../support/app';
import { client, freshEmail, registerAndLogin, sessionCookie } from '../support/auth-client';

describe('accounts: register, sign in, sign out, me, permissions', async () => {
  const app = await createTestApp();

  describe('POST /api/auth/register', () => {
    it('creates the account with an argon2id hash and does not sign in', async () => {
      const email = freshEmail('reg');
      const res = await client(app).post('/api/auth/register', { email: `  ${email.toUpperCase()} `, password: 'secret1', username: ' Deep Listener ' });
      expect(res.statusCode).toBe(201);
      const body = res.json();
      expect(body.message).toBe(AUTH_MESSAGES.registrationSuccess);
      expect(body.user).toMatchObject({ email, username: 'Deep Listener', subscriptionTier: 'free', isAdmin: false, hasPassword: true });
      expect(body.user.passwordHash).toBeUndefined();
      expect(sessionCookie(res)).toBe('');
      const [row] = await app.database.db.select().from(users).where(eq(users.email, email));
      // OWASP ASVS parameters: argon2id, 19 MiB, 2 passes.
      expect(row?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    });

    it('refuses a taken email (in any case) with the message and 409', async () => {
      const { email } = await registerAndLogin(app);
      const res = await client(app).post('/api/auth/register', { email: email.toUpperCase(), password: 'secret1', username: 'x' });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(AUTH_MESSAGES.emailTaken);
    });

    it('answers one of two parallel registrations of an email 201 and the other 409, never 500', async () => {
      // Both pass the "is it taken" read before either inserts, so the unique index decides.
      for (let round = 0; round < 3; round++) {
        const email = freshEmail('race');
        const register = () => client(app).post('/api/auth/register', { email, password: 'secret1', username: 'racer' });
        const replies = await Promise.all([register(), register()]);
        expect(replies.map((r) => r.statusCode).sort()).toEqual([201, 409]);
        const lost = replies.find((r) => r.statusCode === 409);
        expect(lost?.json()).toMatchObject({ error: { code: 'email_taken', message: AUTH_MESSAGES.emailTaken } });
        expect(await app.database.db.select().from(users).where(eq(users.email, email))).toHaveLength(1);
      }
    });

    it('points a member without a password (added by an admin or a platform) to Set Password', async () => {
      const m = await memberWithRole(app, 'dhr1');
      const res = await client(app).post('/api/auth/register', { email: m.user.email, password: 'secret1', username: 'x' });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(AUTH_MESSAGES.emailTakenNoPassword);
      const [row] = await app.database.db.select().from(users).where(eq(users.id, m.user.id));
      expect(row?.passwordHash).toBeNull();
    });

    it('applies the spec rules with its wording and changes nothing', async () => {
      const c = client(app);
      const email = freshEmail('bad');
      const cases: [unknown, number, string][] = [
        [{ email, password: 'secret1', username: '   ' }, 400, AUTH_MESSAGES.usernameRequired],
        [{ email, password: '12345', username: 'a' }, 400, AUTH_MESSAGES.passwordTooShort],
        [{ email: 'not-an-email', password: 'secret1', username: 'a' }, 400, AUTH_MESSAGES.invalidEmail],
        [{ email, password: 'secret1' }, 400, "'username'"],
        [{ email, password: 123456, username: 'a' }, 400, "'password'"],
        [{ email: ['a@b.co'], password: 'secret1', username: 'a' }, 400, "'email'"],
        [{ email, password: 'secret1', username: 'a', isAdmin: true }, 400, 'isAdmin'],
        [{ email, password: 'x'.repeat(100_000), username: 'a' }, 400, 'at most'],
        [{ email, password: 'secret1', username: 'u'.repeat(51) }, 400, 'at most 50'],
        [{ email: `${'a'.repeat(300)}@example.test`, password: 'secret1', username: 'a' }, 400, 'too long'],
      ];
      for (const [payload, status, text] of cases) {
        const res = await c.post('/api/auth/register', payload);
        expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(status);
        expect(res.json().message).toContain(text);
      }
      const text = await c.post('/api/auth/register', 'just a string');
      expect(text.statusCode).toBe(415);
      const rows = await app.database.db.select().from(users).where(eq(users.email, email));
      expect(rows).toHaveLength(0);
    });

    it('answers malformed JSON and a huge body with a 4xx, never a 500', async () => {
      const bad = await app.inject({ method: 'POST', url: '/api/auth/register', headers: { 'content-type': 'application/json' }, payload: '{"email":' });
      expect(bad.statusCode).toBe(400);
      const huge = await app.inject({
        method: 'POST',
        url: '/api/auth/register',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(3 * 1024 * 1024), username: 'a' }),
      });
      expect(huge.statusCode).toBe(413);
      expect(huge.json().error).toBeDefined();
    });
  });

  describe('POST /api/auth/email-login-secure', () => {
    it('signs in with a fresh HttpOnly SameSite=Lax session cookie (not Secure on http)', async () => {
      const { email, password } = await registerAndLogin(app);
      const res = await client(app).post('/api/auth/email-login-secure', { email: email.toUpperCase(), password });
      expect(res.statusCode).toBe(200);
      expect(res.json().user.email).toBe(email);
      const cookie = res.cookies.find((c) => c.name === 'dhr_session');
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
      expect(cookie?.secure).toBeFalsy();
      expect(cookie?.value.length).toBeGreaterThanOrEqual(43);
      const [row] = await app.database.db.select().from(users).where(eq(users.email, email));
      expect(row?.lastLoginAt).toBeInstanceOf(Date);
    });

    it('rotates the session id at every sign-in and deletes the old one', async () => {
      const { email, password, cookie: first, user } = await registerAndLogin(app);
      const again = await client(app).post('/api/auth/email-login-secure', { email, password }, first);
      const second = sessionCookie(again);
      expect(second).not.toBe('');
      expect(second).not.toBe(first);
      expect((await app.inject({ url: '/api/auth/me', headers: { cookie: first } })).statusCode).toBe(401);
      expect((await app.inject({ url: '/api/auth/me', headers: { cookie: second } })).statusCode).toBe(200);
      const rows = await app.database.db.select().from(sessions).where(eq(sessions.userId, user.id));
      expect(rows).toHaveLength(1);
    });

    it('gives the same 401 for a wrong password, an unknown email and an account without a password', async () => {
      const { email } = await registerAndLogin(app);
      const noPassword = await memberWithRole(app, 'dhr1');
      const c = client(app);
      for (const body of [
        { email, password: 'wrong-password' },
        { email: freshEmail('ghost'), password: 'whatever1' },
        { email: noPassword.user.email, password: 'whatever1' },
      ]) {
        const res = await c.post('/api/auth/email-login-secure', body);
        expect(res.statusCode).toBe(401);
        expect(res.json().message).toBe(AUTH_MESSAGES.invalidCredentials);
        expect(sessionCookie(res)).toBe('');
      }
    });

    it('refuses hostile input with 400', async () => {
      const c = client(app);
      for (const payload of [
        { email: 'a@b.co' },
        { email: 'a@b.co', password: '' },
        { email: 'a@b.co', password: { $ne: 1 } },
        { email: 'a@b.co', password: 'x', extra: 1 },
      ]) {
        expect((await c.post('/api/auth/email-login-secure', payload)).statusCode).toBe(400);
      }
    });

    it('slows guesses per (email, network) without locking the member out from another network', async () => {
      const { email, password } = await registerAndLogin(app);
      const attacker = client(app, '203.0.113.7');
      for (let i = 0; i < 10; i += 1) {
        expect((await attacker.post('/api/auth/email-login-secure', { email, password: 'nope-nope' })).statusCode).toBe(401);
      }
      const limited = await attacker.post('/api/auth/email-login-secure', { email, password: 'nope-nope' });
      expect(limited.statusCode).toBe(429);
      expect(limited.json().message).toMatch(/^Too many attempts\. Please try again in \d+ minutes?\.$/);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      // Another address of the attacker's /24 shares the count...
      expect((await client(app, '203.0.113.99').post('/api/auth/email-login-secure', { email, password: 'nope-nope' })).statusCode).toBe(429);
      // ...but the member, from their own network, signs in (the old per-email lock kept them out).
      expect((await client(app, '198.51.100.5').post('/api/auth/email-login-secure', { email, password })).statusCode).toBe(200);
    });

    it('admin sign-in counts in its own bucket', async () => {
      const adminEmail = freshEmail('boss');
      await createMember(app, { email: adminEmail, isAdmin: true, passwordHash: await hashPassword('boss-pass-1') });
      const c = client(app, '192.0.2.10');
      for (let i = 0; i < 11; i += 1) await c.post('/api/auth/email-login-secure', { email: adminEmail, password: 'guess' });
      expect((await c.post('/api/auth/email-login-secure', { email: adminEmail, password: 'guess' })).statusCode).toBe(429);
      expect((await c.post('/api/admin/signin', { email: adminEmail, password: 'boss-pass-1' })).statusCode).toBe(200);
    });

    it('limits per IP (20 tries), counting an IPv6 client by its /64', async () => {
      const ipc = client(app);
      for (let i = 0; i < 20; i += 1) {
        expect((await ipc.post('/api/auth/email-login-secure', { email: freshEmail('spray'), password: 'x' })).statusCode).toBe(401);
      }
      expect((await ipc.post('/api/auth/email-login-secure', { email: freshEmail('spray'), password: 'x' })).statusCode).toBe(429);

      // Rotating addresses inside one /64 does not buy more tries.
      for (let i = 1; i <= 20; i += 1) {
        const res = await client(app, `2001:db8:7:9::${i.toString(16)}`).post('/api/auth/email-login-secure', { email: freshEmail('v6'), password: 'x' });
        expect(res.statusCode).toBe(401);
      }
      expect((await client(app, '2001:db8:7:9:ffff:1:2:3').post('/api/auth/email-login-secure', { email: freshEmail('v6'), password: 'x' })).statusCode).toBe(
        429,
      );
      expect((await client(app, '2001:db8:7:a::1').post('/api/auth/email-login-secure', { email: freshEmail('v6'), password: 'x' })).statusCode).toBe(401);
    });
  });

  describe('POST /api/auth/logout', () => {
    it('deletes the session row and clears the cookie', async () => {
      const { cookie, user } = await registerAndLogin(app);
      const res = await client(app).post('/api/auth/logout', undefined, cookie);
      expect(res.statusCode).toBe(200);
      const cleared = res.cookies.find((c) => c.name === 'dhr_session');
      expect(cleared?.value).toBe('');
      expect(await app.database.db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0);
      expect((await app.inject({ url: '/api/auth/me', headers: { cookie } })).statusCode).toBe(401);
    });

    it('is harmless when not signed in', async () => {
      expect((await client(app).post('/api/auth/logout')).statusCode).toBe(200);
    });

    it('refuses a cross-site sign-out or sign-in (Origin of another site)', async () => {
      const { cookie, email, password } = await registerAndLogin(app);
      const out = await app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie, origin: 'https://evil.example' } });
      expect(out.statusCode).toBe(403);
      expect(out.json().error.code).toBe('cross_site');
      expect((await app.inject({ url: '/api/auth/me', headers: { cookie } })).statusCode).toBe(200);
      const login = await app.inject({
        method: 'POST',
        url: '/api/auth/email-login-secure',
        headers: { origin: 'https://evil.example' },
        payload: { email, password },
      });
      expect(login.statusCode).toBe(403);
      expect(sessionCookie(login)).toBe('');
    });
  });

  describe('GET /api/auth/me and /api/auth/session-user', () => {
    it('me: 401 with the envelope when anonymous, the member otherwise', async () => {
      const anon = await app.inject('/api/auth/me');
      expect(anon.statusCode).toBe(401);
      expect(anon.json()).toMatchObject({ error: { code: 'unauthorized' } });
      const vip = await memberWithRole(app, 'vip');
      const me = await app.inject({ url: '/api/auth/me', headers: { cookie: vip.cookie } });
      expect(me.json()).toMatchObject({ id: vip.user.id, email: vip.user.email, subscriptionTier: 'vip', subscriptionStatus: 'active', isAdmin: false });
      expect(me.json().passwordHash).toBeUndefined();
    });

    it('session-user: {user: null} anonymous, the user with isAdmin otherwise', async () => {
      expect((await app.inject('/api/auth/session-user')).json()).toEqual({ user: null });
      const admin = await memberWithRole(app, 'admin');
      const res = await app.inject({ url: '/api/auth/session-user', headers: { cookie: admin.cookie } });
      expect(res.json().user).toMatchObject({ id: admin.user.id, isAdmin: true });
    });

    it('ignores forged, oversized and garbage session cookies', async () => {
      for (const cookie of ['dhr_session=forged', `dhr_session=${'a'.repeat(5000)}`, 'dhr_session=%00%ff', 'dhr_session=']) {
        expect((await app.inject({ url: '/api/auth/me', headers: { cookie } })).statusCode).toBe(401);
      }
    });
  });

  describe('GET /api/user/permissions', () => {
    it('anonymous: 200 with every flag false and download limit 0', async () => {
      const res = await app.inject('/api/user/permissions');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(ANONYMOUS_PERMISSIONS);
    });

    it("counts the VIP's downloads since midnight Dublin in remainingDownloads", async () => {
      const vip = await memberWithRole(app, 'vip');
      const [mix] = await app.database.db.select().from(vipMixes).limit(1);
      if (!mix) throw new Error('no seeded VIP mix');
      await app.database.db.insert(mixDownloads).values([
        { userId: vip.user.id, mixId: mix.id },
        { userId: vip.user.id, mixId: mix.id, createdAt: new Date(Date.now() - 2 * 86_400_000) },
      ]);
      const body = (await app.inject({ url: '/api/user/permissions', headers: { cookie: vip.cookie } })).json();
      expect(body).toMatchObject({ canDownload: true, dailyDownloadLimit: 2, remainingDownloads: 1 });
    });

    it('returns exactly the permission fields per role', async () => {
      const expected: Record<string, [boolean, boolean, boolean, boolean, boolean]> = {
        // canAccessDHR1, canAccessDHR2, canAccessVIP, canDownload, canComment
        free: [false, false, false, false, false],
        dhr1: [true, false, false, false, true],
        dhr2: [true, true, false, false, true],
        vip: [true, true, true, true, true],
        'expired-vip': [false, false, false, false, false],
        admin: [true, true, true, true, true],
      };
      for (const [role, flags] of Object.entries(expected)) {
        const m = await memberWithRole(app, role as Parameters<typeof memberWithRole>[1]);
        const body = (await app.inject({ url: '/api/user/permissions', headers: { cookie: m.cookie } })).json();
        expect(Object.keys(body).sort(), role).toEqual(Object.keys(permissionsSchema.shape).sort());
        expect([body.canAccessDHR1, body.canAccessDHR2, body.canAccessVIP, body.canDownload, body.canComment], role).toEqual(flags);
        expect(body).toMatchObject({ authenticated: true, userId: m.user.id, email: m.user.email });
        if (role === 'expired-vip') expect(body).toMatchObject({ subscriptionTier: 'vip', subscriptionExpired: true });
        if (role === 'vip') expect(body).toMatchObject({ dailyDownloadLimit: 2, remainingDownloads: 2 });
      }
    });
  });
});

import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '../../src/contracts/auth';
import { users } from '../../src/server/db/schema';
import { createTestApp, memberWithRole } from '../support/app';
import { client, freshEmail, registerAndLogin, sessionCookie } from '../support/auth-client';

describe('admin setup, admin sign-in, session debug and quick assign', async () => {
  const app = await createTestApp();

  describe('first-admin setup', () => {
    it('is needed on a fresh database, creates the admin once and signs in, then answers 409', async () => {
      expect((await app.inject('/api/admin/setup-needed')).json()).toEqual({ setupNeeded: true });
      const c = client(app);
      const bad = await c.post('/api/admin/setup', { email: 'boss@example.test', username: 'Boss', password: '123' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toContain(AUTH_MESSAGES.passwordTooShort);
      expect((await app.inject('/api/admin/setup-needed')).json()).toEqual({ setupNeeded: true });

      const res = await c.post('/api/admin/setup', { email: 'Boss@Example.test', username: 'Boss', password: 'admin-pass-1' });
      expect(res.statusCode).toBe(201);
      expect(res.json().user).toMatchObject({ email: 'boss@example.test', isAdmin: true });
      const cookie = sessionCookie(res);
      expect((await app.inject({ url: '/api/admin/session-debug', headers: { cookie } })).statusCode).toBe(200);
      expect((await app.inject('/api/admin/setup-needed')).json()).toEqual({ setupNeeded: false });

      const again = await client(app).post('/api/admin/setup', { email: 'second@example.test', username: 'Two', password: 'admin-pass-2' });
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toBe(AUTH_MESSAGES.setupNotNeeded);
      expect(await app.database.db.select().from(users).where(eq(users.email, 'second@example.test'))).toHaveLength(0);
    });

    it('refuses unknown fields (no smuggled flags)', async () => {
      const res = await client(app).post('/api/admin/setup', { email: 'x@example.test', username: 'x', password: 'abcdef', isAdmin: false });
      expect(res.statusCode).toBe(400);
    });
  });

  describe('POST /api/admin/signin', () => {
    it('needs the password: email alone is refused', async () => {
      const res = await client(app).post('/api/admin/signin', { email: 'boss@example.test' });
      expect(res.statusCode).toBe(400);
      expect(sessionCookie(res)).toBe('');
    });

    it('signs in an admin with the password; wrong password 401; members 403', async () => {
      const c = client(app);
      expect((await c.post('/api/admin/signin', { email: 'boss@example.test', password: 'wrong-one' })).statusCode).toBe(401);
      const ok = await c.post('/api/admin/signin', { email: 'boss@example.test', password: 'admin-pass-1' });
      expect(ok.statusCode).toBe(200);
      expect(ok.json().user.isAdmin).toBe(true);
      const member = await registerAndLogin(app);
      const denied = await c.post('/api/admin/signin', { email: member.email, password: member.password });
      expect(denied.statusCode).toBe(403);
      expect(sessionCookie(denied)).toBe('');
    });
  });

  describe('GET /api/admin/session-debug', () => {
    it('is admin only and shows no secrets', async () => {
      expect((await app.inject('/api/admin/session-debug')).statusCode).toBe(401);
      const free = await memberWithRole(app, 'free');
      expect((await app.inject({ url: '/api/admin/session-debug', headers: { cookie: free.cookie } })).statusCode).toBe(403);
      const admin = await memberWithRole(app, 'admin');
      const res = await app.inject({ url: '/api/admin/session-debug', headers: { cookie: admin.cookie } });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({ authenticated: true, user: { id: admin.user.id, isAdmin: true }, cookie: { name: 'dhr_session', httpOnly: true, sameSite: 'lax', secure: false } });
      const token = admin.cookie.split('=')[1] ?? '';
      expect(res.body).not.toContain(token);
      expect(res.body).not.toMatch(/idHash|id_hash|passwordHash|argon2/);
    });
  });

  describe('POST /api/admin/assign-tier', () => {
    const assign = async (cookie: string, payload: unknown) =>
      app.inject({ method: 'POST', url: '/api/admin/assign-tier', headers: { cookie }, payload: payload as object });

    it('is admin only', async () => {
      const free = await memberWithRole(app, 'free');
      expect((await app.inject({ method: 'POST', url: '/api/admin/assign-tier', payload: { email: 'a@b.co', tier: 'vip' } })).statusCode).toBe(401);
      expect((await assign(free.cookie, { email: free.user.email, tier: 'vip', expiryDays: 0 })).statusCode).toBe(403);
      const [row] = await app.database.db.select().from(users).where(eq(users.id, free.user.id));
      expect(row?.subscriptionTier).toBe('free');
    });

    it('creates a missing member with the tier, any case, no expiry for 0', async () => {
      const admin = await memberWithRole(app, 'admin');
      const email = freshEmail('new');
      const res = await assign(admin.cookie, { email: email.toUpperCase(), tier: 'DHR1', expiryDays: 0, username: '  Night Owl ' });
      expect(res.statusCode).toBe(200);
      expect(res.json().message).toBe(AUTH_MESSAGES.tierAssigned);
      expect(res.json().user).toMatchObject({ email, username: 'Night Owl', subscriptionTier: 'dhr1', subscriptionStatus: 'active', subscriptionSource: 'admin', subscriptionExpiry: null, hasPassword: false });
    });

    it('updates an existing member: tier, active, source admin, expiry in days', async () => {
      const admin = await memberWithRole(app, 'admin');
      const m = await memberWithRole(app, 'expired-vip');
      const res = await assign(admin.cookie, { email: m.user.email, tier: 'Vip', expiryDays: '30' });
      expect(res.statusCode).toBe(200);
      const expiry = new Date(res.json().user.subscriptionExpiry as string).getTime();
      expect(Math.abs(expiry - (Date.now() + 30 * 86_400_000))).toBeLessThan(60_000);
      expect(res.json().user.username).toBe(m.user.username);
      const perms = (await app.inject({ url: '/api/user/permissions', headers: { cookie: m.cookie } })).json();
      expect(perms).toMatchObject({ canAccessVIP: true, subscriptionExpired: false });
    });

    it('uses the spec messages for bad input and changes nothing', async () => {
      const admin = await memberWithRole(app, 'admin');
      const email = freshEmail('never');
      const cases: [unknown, string][] = [
        [{ email: '', tier: 'vip' }, AUTH_MESSAGES.quickAssignRequired],
        [{ email, tier: ' ' }, AUTH_MESSAGES.quickAssignRequired],
        [{ email, tier: 'gold' }, "Invalid tier 'gold'"],
        [{ email: 'nope', tier: 'vip' }, AUTH_MESSAGES.invalidEmail],
        [{ email, tier: 'vip', expiryDays: -1 }, 'Expiry days'],
        [{ email, tier: 'vip', expiryDays: 1.5 }, 'Expiry days'],
        [{ email, tier: 'vip', expiryDays: 'ten' }, 'whole number'],
        [{ email, tier: 'vip', expiryDays: 10_000_000 }, 'Expiry days'],
        [{ email, tier: 'vip', isAdmin: true }, 'isAdmin'],
        [{ email, tier: ['vip'] }, "'tier'"],
        [{ email: 'x'.repeat(100_000), tier: 'vip' }, 'too long'],
        [{ tier: 'vip' }, "'email'"],
      ];
      for (const [payload, text] of cases) {
        const res = await assign(admin.cookie, payload);
        expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
        expect(res.json().message).toContain(text);
      }
      expect(await app.database.db.select().from(users).where(eq(users.email, email))).toHaveLength(0);
    });
  });
});

describe('cookies on an https PUBLIC_URL', async () => {
  const app = await createTestApp({ PUBLIC_URL: 'https://radio.example' });

  it('sets Secure on the session cookie', async () => {
    const email = freshEmail('secure');
    const c = client(app);
    await app.inject({ method: 'POST', url: '/api/auth/register', remoteAddress: c.ip, payload: { email, password: 'secret1', username: 's' } });
    const res = await c.post('/api/auth/email-login-secure', { email, password: 'secret1' });
    const cookie = res.cookies.find((x) => x.name === 'dhr_session');
    expect(cookie).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Lax' });
  });
});

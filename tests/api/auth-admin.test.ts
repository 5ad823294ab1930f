import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { AUTH_MESSAGES } from '../../src/contracts/auth';
import { sessions, users } from '../../src/server/db/schema';
import { createSession, SECURE_SESSION_COOKIE, SESSION_COOKIE } from '../../src/server/lib/sessions';
import { createSetupTokenGate } from '../../src/server/modules/auth/setup-token';
import { createTestApp, memberWithRole, type TestMember } from '../support/app';
import { client, freshEmail, registerAndLogin, sessionCookie } from '../support/auth-client';
import { tempDataDir } from '../support/outbox';

const SETUP_TOKEN = 'operator-chosen-setup-token-1';

describe('admin setup, admin sign-in, session debug and quick assign', async () => {
  const app = await createTestApp({ ADMIN_SETUP_TOKEN: SETUP_TOKEN });

  describe('first-admin setup', () => {
    it('is needed on a fresh database, creates the admin once and signs in, then answers 409', async () => {
      expect((await app.inject('/api/admin/setup-needed')).json()).toEqual({ setupNeeded: true });
      const c = client(app);
      const bad = await c.post('/api/admin/setup', { setupToken: SETUP_TOKEN, email: 'boss@example.test', username: 'Boss', password: '123' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toContain(AUTH_MESSAGES.passwordTooShort);
      expect((await app.inject('/api/admin/setup-needed')).json()).toEqual({ setupNeeded: true });

      // A scanner that finds the fresh install cannot win it without the token.
      const body = { email: 'Boss@Example.test', username: 'Boss', password: 'admin-pass-1' };
      const noToken = await c.post('/api/admin/setup', body);
      expect(noToken.statusCode).toBe(400);
      for (const setupToken of ['guess', `${SETUP_TOKEN}x`, SETUP_TOKEN.slice(0, -1)]) {
        const wrong = await c.post('/api/admin/setup', { ...body, setupToken });
        expect(wrong.statusCode).toBe(403);
        expect(wrong.json()).toMatchObject({ error: { code: 'setup_token_invalid', message: AUTH_MESSAGES.setupTokenInvalid } });
        expect(sessionCookie(wrong)).toBe('');
      }
      expect((await app.inject('/api/admin/setup-needed')).json()).toEqual({ setupNeeded: true });

      const res = await c.post('/api/admin/setup', { ...body, setupToken: SETUP_TOKEN });
      expect(res.statusCode).toBe(201);
      expect(res.json().user).toMatchObject({ email: 'boss@example.test', isAdmin: true });
      const cookie = sessionCookie(res);
      expect((await app.inject({ url: '/api/admin/session-debug', headers: { cookie } })).statusCode).toBe(200);
      expect((await app.inject('/api/admin/setup-needed')).json()).toEqual({ setupNeeded: false });

      const again = await client(app).post('/api/admin/setup', {
        setupToken: SETUP_TOKEN,
        email: 'second@example.test',
        username: 'Two',
        password: 'admin-pass-2',
      });
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toBe(AUTH_MESSAGES.setupNotNeeded);
      expect(await app.database.db.select().from(users).where(eq(users.email, 'second@example.test'))).toHaveLength(0);
    });

    it('refuses unknown fields (no smuggled flags)', async () => {
      const res = await client(app).post('/api/admin/setup', {
        setupToken: SETUP_TOKEN,
        email: 'x@example.test',
        username: 'x',
        password: 'abcdef',
        isAdmin: false,
      });
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
      // The browser drops an admin's cookie with the session: 12 hours.
      expect(ok.cookies.find((x) => x.name === 'dhr_session')?.maxAge).toBe(12 * 3600);
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
      expect(body).toMatchObject({
        authenticated: true,
        user: { id: admin.user.id, isAdmin: true },
        cookie: { name: 'dhr_session', httpOnly: true, sameSite: 'lax', secure: false },
      });
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
      expect(res.json().user).toMatchObject({
        email,
        username: 'Night Owl',
        subscriptionTier: 'dhr1',
        subscriptionStatus: 'active',
        subscriptionSource: 'admin',
        subscriptionExpiry: null,
        hasPassword: false,
      });
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

describe('a setup token generated at first start', async () => {
  const log = captureLog();
  const app = await createTestApp({ LOG_LEVEL: 'info' }, {}, { logger: true, logStream: log.stream });

  it('is printed once at warn level while no admin exists, works once, and is shown nowhere else', async () => {
    const lines = log.lines().filter((l) => l.msg.includes('setup token'));
    expect(lines).toHaveLength(1);
    expect(lines[0]?.level).toBe(40);
    const token = /token: (\S+)$/.exec(lines[0]?.msg ?? '')?.[1] ?? '';
    expect(token.length).toBeGreaterThanOrEqual(43);
    expect((await app.inject('/api/admin/setup-needed')).body).not.toContain(token);

    const body = { email: freshEmail('first'), username: 'First', password: 'admin-pass-1' };
    expect((await client(app).post('/api/admin/setup', { ...body, setupToken: 'not-it' })).statusCode).toBe(403);
    expect((await client(app).post('/api/admin/setup', { ...body, setupToken: token })).statusCode).toBe(201);
    expect(log.lines().filter((l) => l.msg.includes('setup token'))).toHaveLength(1);
  });

  it('is not generated while an admin exists', () => {
    const warn = vi.fn();
    const gate = createSetupTokenGate({ envToken: undefined, adminExists: true, log: { warn } as unknown as FastifyBaseLogger });
    expect(warn).not.toHaveBeenCalled();
    expect(gate.matches('')).toBe(false);
  });
});

describe('at least one admin, whatever runs in parallel', async () => {
  const app = await createTestApp();
  const db = app.database.db;
  const edit = (actor: TestMember, target: TestMember, changes: Record<string, unknown>) =>
    app.inject({
      method: 'PUT',
      url: `/api/admin/users/${target.user.id}`,
      headers: { cookie: actor.cookie },
      payload: {
        email: target.user.email,
        username: target.user.username,
        subscriptionTier: target.user.subscriptionTier,
        subscriptionStatus: target.user.subscriptionStatus,
        subscriptionSource: target.user.subscriptionSource,
        pledgeAmount: 0,
        isAdmin: target.user.isAdmin,
        ...changes,
      },
    });
  const adminCount = async () => (await db.select().from(users).where(eq(users.isAdmin, true))).length;

  it('two admins demoting each other at once leave one admin', async () => {
    // Rounds, so the two requests' checks really overlap at least once (PostgreSQL runs them on two connections).
    for (let round = 0; round < 8; round += 1) {
      await db.update(users).set({ isAdmin: false }).where(eq(users.isAdmin, true));
      const a = await memberWithRole(app, 'admin');
      const b = await memberWithRole(app, 'admin');
      const [ab, ba] = await Promise.all([edit(a, b, { isAdmin: false }), edit(b, a, { isAdmin: false })]);
      const codes = [ab.statusCode, ba.statusCode].sort();
      expect(codes[0]).toBe(200);
      // The loser finds its rights gone (403), no other admin left (409), or its session already ended (401).
      expect([401, 403, 409]).toContain(codes[1]);
      expect(await adminCount()).toBe(1);
    }
  });

  it('refuses to demote the last other admin with the message', async () => {
    await db.update(users).set({ isAdmin: false }).where(eq(users.isAdmin, true));
    const a = await memberWithRole(app, 'admin');
    const b = await memberWithRole(app, 'admin');
    expect((await edit(a, b, { isAdmin: false })).statusCode).toBe(200);
    // b is no longer admin: its session ended with the rights.
    expect((await app.inject({ url: '/api/auth/me', headers: { cookie: b.cookie } })).statusCode).toBe(401);
    const last = await edit(a, a, { isAdmin: false });
    expect(last.statusCode).toBe(400);
    expect(await adminCount()).toBe(1);
  });
});

describe('admin ends member sessions', async () => {
  const app = await createTestApp();
  const revoke = (cookie: string, id: string) => app.inject({ method: 'POST', url: `/api/admin/users/${id}/sessions/revoke`, headers: { cookie } });
  const me = (cookie: string) => app.inject({ url: '/api/auth/me', headers: { cookie } });

  it('POST /api/admin/users/{id}/sessions/revoke signs the member out everywhere; admin only', async () => {
    const admin = await memberWithRole(app, 'admin');
    const m = await memberWithRole(app, 'vip');
    const second = `${SESSION_COOKIE}=${await createSession(app.database.db, m.user.id)}`;
    expect((await revoke(m.cookie, m.user.id)).statusCode).toBe(403);
    expect((await app.inject({ method: 'POST', url: `/api/admin/users/${m.user.id}/sessions/revoke` })).statusCode).toBe(401);
    const res = await revoke(admin.cookie, m.user.id);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(AUTH_MESSAGES.sessionsRevoked);
    expect((await me(m.cookie)).statusCode).toBe(401);
    expect((await me(second)).statusCode).toBe(401);
    expect((await me(admin.cookie)).statusCode).toBe(200);
    expect((await revoke(admin.cookie, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await revoke(admin.cookie, 'not-a-uuid')).statusCode).toBe(404);
  });

  it("ends a member's sessions when an admin changes their email", async () => {
    const admin = await memberWithRole(app, 'admin');
    const m = await memberWithRole(app, 'dhr1');
    const put = (email: string) =>
      app.inject({
        method: 'PUT',
        url: `/api/admin/users/${m.user.id}`,
        headers: { cookie: admin.cookie },
        payload: {
          email,
          username: m.user.username,
          subscriptionTier: 'dhr1',
          subscriptionStatus: 'active',
          subscriptionSource: 'admin',
          pledgeAmount: 0,
          isAdmin: false,
        },
      });
    expect((await put(m.user.email)).statusCode).toBe(200);
    expect((await me(m.cookie)).statusCode).toBe(200);
    expect((await put(freshEmail('moved'))).statusCode).toBe(200);
    expect((await me(m.cookie)).statusCode).toBe(401);
  });

  it('ends every session of a member an admin makes admin: the rights never land in a session opened before', async () => {
    const admin = await memberWithRole(app, 'admin');
    const m = await memberWithRole(app, 'dhr1');
    const second = `${SESSION_COOKIE}=${await createSession(app.database.db, m.user.id)}`;
    const res = await app.inject({
      method: 'PUT',
      url: `/api/admin/users/${m.user.id}`,
      headers: { cookie: admin.cookie },
      payload: {
        email: m.user.email,
        username: m.user.username,
        subscriptionTier: 'dhr1',
        subscriptionStatus: 'active',
        subscriptionSource: 'admin',
        pledgeAmount: 0,
        isAdmin: true,
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().isAdmin).toBe(true);
    expect((await me(m.cookie)).statusCode).toBe(401);
    expect((await me(second)).statusCode).toBe(401);
    expect((await me(admin.cookie)).statusCode).toBe(200);
  });
});

describe('session lifetimes', async () => {
  const app = await createTestApp();
  const db = app.database.db;
  const hour = 3600 * 1000;
  const ageSession = (userId: string, ms: number) =>
    db
      .update(sessions)
      .set({ createdAt: new Date(Date.now() - ms) })
      .where(eq(sessions.userId, userId));
  const status = async (cookie: string) => (await app.inject({ url: '/api/auth/me', headers: { cookie } })).statusCode;

  it('a member session ends 30 days after sign-in however much it is used', async () => {
    const m = await memberWithRole(app, 'vip');
    await ageSession(m.user.id, 29 * 24 * hour);
    expect(await status(m.cookie)).toBe(200);
    await ageSession(m.user.id, 30 * 24 * hour + 60_000);
    expect(await status(m.cookie)).toBe(401);
    expect(await db.select().from(sessions).where(eq(sessions.userId, m.user.id))).toHaveLength(0);
  });

  it('an admin session ends after 12 hours', async () => {
    const a = await memberWithRole(app, 'admin');
    await ageSession(a.user.id, 11 * hour);
    expect(await status(a.cookie)).toBe(200);
    await ageSession(a.user.id, 12 * hour + 60_000);
    expect(await status(a.cookie)).toBe(401);
  });

  it('sliding never moves the end past the absolute lifetime', async () => {
    const a = await memberWithRole(app, 'admin');
    const created = Date.now() - 11 * hour;
    await db
      .update(sessions)
      .set({ createdAt: new Date(created), lastSeenAt: new Date(Date.now() - 2 * hour) })
      .where(eq(sessions.userId, a.user.id));
    expect(await status(a.cookie)).toBe(200);
    const [row] = await db.select().from(sessions).where(eq(sessions.userId, a.user.id));
    expect(row?.expiresAt.getTime()).toBeLessThanOrEqual(created + 12 * hour);
  });
});

describe('cookies on an https PUBLIC_URL', async () => {
  const app = await createTestApp({ PUBLIC_URL: 'https://radio.example' });

  it('names the session cookie __Host-dhr_session: Secure, Path=/, no Domain', async () => {
    const email = freshEmail('secure');
    const c = client(app);
    await app.inject({ method: 'POST', url: '/api/auth/register', remoteAddress: c.ip, payload: { email, password: 'secret1', username: 's' } });
    const res = await c.post('/api/auth/email-login-secure', { email, password: 'secret1' });
    expect(res.cookies.find((x) => x.name === 'dhr_session')).toBeUndefined();
    const cookie = res.cookies.find((x) => x.name === SECURE_SESSION_COOKIE);
    expect(cookie).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie?.domain).toBeUndefined();
    const header = `${SECURE_SESSION_COOKIE}=${cookie?.value ?? ''}`;
    expect((await app.inject({ url: '/api/auth/me', headers: { cookie: header } })).json().email).toBe(email);
    // The plain name is not read on https.
    expect((await app.inject({ url: '/api/auth/me', headers: { cookie: `dhr_session=${cookie?.value ?? ''}` } })).statusCode).toBe(401);
    const out = await c.post('/api/auth/logout', undefined, header);
    expect(out.cookies.find((x) => x.name === SECURE_SESSION_COOKIE)).toMatchObject({ value: '', secure: true, path: '/' });
  });
});

describe('logs', async () => {
  const log = captureLog();
  const dataDir = tempDataDir();
  const app = await createTestApp({ LOG_LEVEL: 'info', DATA_DIR: dataDir, ADMIN_SETUP_TOKEN: SETUP_TOKEN }, {}, { logger: true, logStream: log.stream });

  it('hold no email address at info level through the account flows', async () => {
    const email = freshEmail('private');
    const admin = await memberWithRole(app, 'admin');
    const c = client(app);
    await c.post('/api/auth/register', { email, password: 'secret-1', username: 'p' });
    await c.post('/api/auth/email-login-secure', { email, password: 'wrong-1' });
    await c.post('/api/auth/simple-login', { email });
    await c.post('/api/auth/simple-login', { email: freshEmail('unknown') });
    await c.post('/api/auth/forgot-password', { email });
    await app.inject({ method: 'POST', url: '/api/admin/assign-tier', headers: { cookie: admin.cookie }, payload: { email, tier: 'vip' } });
    await app.mailer.idle();
    const info = log.lines().filter((l) => l.level >= 30);
    expect(info.length).toBeGreaterThan(5);
    expect(info.filter((l) => /@example\.test/.test(l.raw)).map((l) => l.raw)).toEqual([]);
  });
});

function captureLog() {
  const raw: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      raw.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  const lines = () =>
    raw.map((line) => {
      const parsed = JSON.parse(line) as { level: number; msg?: string };
      return { level: parsed.level, msg: parsed.msg ?? '', raw: line };
    });
  return { stream, lines };
}

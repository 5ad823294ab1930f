import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { AUTH_MESSAGES, LINK_INVALID_MESSAGE } from '../../src/contracts/auth';
import { authTokens, users } from '../../src/server/db/schema';
import { createTestApp, createMember } from '../support/app';
import { client, freshEmail, registerAndLogin, sessionCookie } from '../support/auth-client';
import { codeIn, lastMailTo, linkIn, readOutbox, tempDataDir, tokenIn } from '../support/outbox';

describe('one-time links and codes: sign-in link, set password, forgot/reset password', async () => {
  const dataDir = tempDataDir();
  const app = await createTestApp({ DATA_DIR: dataDir });
  const mailsTo = (email: string) => readOutbox(dataDir).filter((m) => m.to.includes(email));
  const pathOf = (url: string) => url.replace('http://localhost:3000', '');

  describe('POST /api/auth/simple-login, the link page and POST /api/auth/magic', () => {
    const signInLink = (email: string) => linkIn(lastMailTo(dataDir, email), '/simple-auth/link');
    const magic = (token: string) => client(app).post('/api/auth/magic', { token });

    it('mails a link to a page (token in the #fragment) that signs in once, on a POST only', async () => {
      const m = await createMember(app, { subscriptionTier: 'dhr1', subscriptionStatus: 'active' });
      const res = await client(app).post('/api/auth/simple-login', { email: m.user.email.toUpperCase() });
      expect(res.statusCode).toBe(200);
      expect(res.json().message).toBe(AUTH_MESSAGES.linkSent);
      expect(sessionCookie(res)).toBe('');

      const mail = lastMailTo(dataDir, m.user.email);
      expect(mail.subject).toBe('Your Deep House Radio sign-in link');
      expect(mail.raw).toContain('Content-Type: text/plain');
      expect(mail.raw).toContain('Content-Type: text/html');
      const url = signInLink(m.user.email);
      // The token is in the fragment, which browsers never send: no query string, nothing to log.
      expect(url.startsWith('http://localhost:3000/simple-auth/link#token=')).toBe(true);
      expect(new URL(url).search).toBe('');
      const token = tokenIn(url);
      // >= 128 bits of randomness: 256-bit base64url token.
      expect(token.length).toBeGreaterThanOrEqual(43);
      // Stored hashed: the raw token is nowhere in the table.
      const rows = await app.database.db.select().from(authTokens).where(eq(authTokens.email, m.user.email));
      expect(rows.some((r) => r.tokenHash.includes(token))).toBe(false);
      const lifetime = (rows[0]?.expiresAt.getTime() ?? 0) - (rows[0]?.createdAt.getTime() ?? 0);
      expect(lifetime).toBeLessThanOrEqual(15 * 60 * 1000 + 1000);

      // A scanner opening the link (GET) uses nothing up; the old GET that signed in is gone.
      await client(app).get(pathOf(url));
      expect((await client(app).get(`/api/auth/magic?token=${token}`)).statusCode).toBe(404);
      // The page shows whose account the link opens, without using it.
      for (let i = 0; i < 2; i += 1) {
        const preview = await client(app).post('/api/auth/magic/preview', { token });
        expect(preview.statusCode).toBe(200);
        expect(preview.json()).toEqual({ email: m.user.email });
      }

      const follow = await magic(token);
      expect(follow.statusCode).toBe(200);
      expect(follow.json().user.id).toBe(m.user.id);
      const cookie = sessionCookie(follow);
      const me = await app.inject({ url: '/api/auth/me', headers: { cookie } });
      expect(me.json().id).toBe(m.user.id);

      const again = await magic(token);
      expect(again.statusCode).toBe(400);
      expect(again.json()).toMatchObject({ error: { code: 'link_invalid', message: LINK_INVALID_MESSAGE } });
      expect(sessionCookie(again)).toBe('');
      expect((await client(app).post('/api/auth/magic/preview', { token })).statusCode).toBe(400);
    });

    it('answers the same for an unknown email and sends nothing', async () => {
      const ghost = freshEmail('ghost');
      const res = await client(app).post('/api/auth/simple-login', { email: ghost });
      expect(res.statusCode).toBe(200);
      expect(res.json().message).toBe(AUTH_MESSAGES.linkSent);
      expect(mailsTo(ghost)).toHaveLength(0);
    });

    it('refuses an expired link, a garbage token and a missing token', async () => {
      const m = await createMember(app);
      await client(app).post('/api/auth/simple-login', { email: m.user.email });
      const token = tokenIn(signInLink(m.user.email));
      await app.database.db
        .update(authTokens)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(authTokens.email, m.user.email));
      for (const payload of [{ token }, { token: 'x'.repeat(43) }, {}, { token: 'y'.repeat(5000) }, { token: 5 }, { token, extra: 1 }]) {
        for (const url of ['/api/auth/magic', '/api/auth/magic/preview']) {
          const res = await client(app).post(url, payload);
          expect(res.statusCode, url).toBe(400);
          expect(sessionCookie(res)).toBe('');
        }
      }
    });

    it('a newer link replaces the older one', async () => {
      const m = await createMember(app);
      const c = client(app);
      await c.post('/api/auth/simple-login', { email: m.user.email });
      const first = tokenIn(signInLink(m.user.email));
      await c.post('/api/auth/simple-login', { email: m.user.email });
      const second = tokenIn(signInLink(m.user.email));
      expect(second).not.toBe(first);
      expect((await magic(first)).statusCode).toBe(400);
      expect((await magic(second)).statusCode).toBe(200);
    });

    it('creates the account of an active platform subscriber on first sign-in', async () => {
      const email = freshEmail('patron');
      const lapsed = freshEmail('lapsed');
      app.modules.platformSubscribers.register(async (e) => {
        if (e === email) return { email, tier: 'dhr2', status: 'active', expiry: null, source: 'patreon', pledgeAmountCents: 500, firstName: 'Pat' };
        if (e === lapsed) return { email: lapsed, tier: 'vip', status: 'expired', expiry: null, source: 'buymeacoffee', pledgeAmountCents: 1000 };
        return null;
      });
      await client(app).post('/api/auth/simple-login', { email: lapsed });
      expect(mailsTo(lapsed)).toHaveLength(0);

      await client(app).post('/api/auth/simple-login', { email });
      expect(await app.database.db.select().from(users).where(eq(users.email, email))).toHaveLength(0);
      const follow = await magic(tokenIn(signInLink(email)));
      expect(follow.statusCode).toBe(200);
      const me = (await app.inject({ url: '/api/user/permissions', headers: { cookie: sessionCookie(follow) } })).json();
      expect(me).toMatchObject({ email, subscriptionTier: 'dhr2', canAccessDHR2: true, firstName: 'Pat' });
    });

    it('limits link requests per email (3 per 15 minutes) and per IP (10)', async () => {
      const m = await createMember(app);
      for (let i = 0; i < 3; i += 1) expect((await client(app).post('/api/auth/simple-login', { email: m.user.email })).statusCode).toBe(200);
      const limited = await client(app).post('/api/auth/simple-login', { email: m.user.email });
      expect(limited.statusCode).toBe(429);
      expect(limited.json().message).toMatch(/Please try again in \d+ minutes?\./);
      expect(mailsTo(m.user.email)).toHaveLength(3);

      const c = client(app);
      for (let i = 0; i < 10; i += 1) expect((await c.post('/api/auth/simple-login', { email: freshEmail('ip') })).statusCode).toBe(200);
      expect((await c.post('/api/auth/simple-login', { email: freshEmail('ip') })).statusCode).toBe(429);
    });

    it('never signs an admin in by link: the mail points to the password sign-in instead', async () => {
      const admin = await createMember(app, { isAdmin: true });
      const res = await client(app).post('/api/auth/simple-login', { email: admin.user.email });
      expect(res.json().message).toBe(AUTH_MESSAGES.linkSent);
      const mail = lastMailTo(dataDir, admin.user.email);
      expect(mail.subject).toBe('Signing in to Deep House Radio as an admin');
      expect(mail.body).not.toContain('#token=');

      // A link sent before the member became an admin no longer signs in.
      const m = await createMember(app);
      await client(app).post('/api/auth/simple-login', { email: m.user.email });
      const token = tokenIn(signInLink(m.user.email));
      await app.database.db.update(users).set({ isAdmin: true }).where(eq(users.id, m.user.id));
      const follow = await magic(token);
      expect(follow.statusCode).toBe(400);
      expect(sessionCookie(follow)).toBe('');
    });

    it('refuses hostile input', async () => {
      const c = client(app);
      for (const payload of [{}, { email: 5 }, { email: 'nope' }, { email: 'a@b.co', admin: true }, { email: `${'a'.repeat(100_000)}@b.co` }]) {
        expect((await c.post('/api/auth/simple-login', payload)).statusCode).toBe(400);
      }
    });
  });

  describe('set password with proof of the email', () => {
    it('check-user-exists tells exists and hasPassword', async () => {
      const noPw = await createMember(app);
      const { email } = await registerAndLogin(app);
      const c = client(app);
      expect((await c.post('/api/auth/check-user-exists', { email: noPw.user.email })).json()).toEqual({ exists: true, hasPassword: false });
      expect((await c.post('/api/auth/check-user-exists', { email })).json()).toEqual({ exists: true, hasPassword: true });
      expect((await c.post('/api/auth/check-user-exists', { email: freshEmail('none') })).json()).toEqual({ exists: false, hasPassword: false });
      expect((await c.post('/api/auth/check-user-exists', { email: 'x' })).statusCode).toBe(400);
    });

    it('check-user-exists is limited hard: 10 per IP, 5 per email per 15 minutes', async () => {
      const c = client(app);
      for (let i = 0; i < 10; i += 1) expect((await c.post('/api/auth/check-user-exists', { email: freshEmail('enum') })).statusCode).toBe(200);
      const res = await c.post('/api/auth/check-user-exists', { email: freshEmail('enum') });
      expect(res.statusCode).toBe(429);
      expect(res.json().message).toMatch(/try again in/);
      const email = freshEmail('target');
      for (let i = 0; i < 5; i += 1) expect((await client(app).post('/api/auth/check-user-exists', { email })).statusCode).toBe(200);
      expect((await client(app).post('/api/auth/check-user-exists', { email })).statusCode).toBe(429);
    });

    it('refuses to set a password without the emailed code', async () => {
      const m = await createMember(app);
      const c = client(app);
      // The spec's old payload (email + password) is no longer enough.
      const noProof = await c.post('/api/auth/set-password', { email: m.user.email, password: 'new-secret' });
      expect(noProof.statusCode).toBe(400);
      expect(noProof.json().message).toContain("'code'");
      const guessed = await c.post('/api/auth/set-password', { email: m.user.email, code: '123456', password: 'new-secret' });
      expect(guessed.statusCode).toBe(400);
      const [row] = await app.database.db.select().from(users).where(eq(users.id, m.user.id));
      expect(row?.passwordHash).toBeNull();
    });

    it('sends a code, verifies it, sets the password once, then sign-in works', async () => {
      const m = await createMember(app);
      const c = client(app);
      const req = await c.post('/api/auth/set-password/request-code', { email: m.user.email });
      expect(req.statusCode).toBe(200);
      const mail = lastMailTo(dataDir, m.user.email);
      expect(mail.subject).toBe('Your Deep House Radio verification code');
      const code = codeIn(mail);
      const verify = await c.post('/api/auth/set-password/verify-code', { email: m.user.email, code });
      expect(verify.json().message).toBe(AUTH_MESSAGES.emailVerified);
      const tooShort = await c.post('/api/auth/set-password', { email: m.user.email, code, password: '123' });
      expect(tooShort.statusCode).toBe(400);
      expect(tooShort.json().message).toContain(AUTH_MESSAGES.passwordTooShort);
      const set = await c.post('/api/auth/set-password', { email: m.user.email, code, password: 'fresh-pass' });
      expect(set.statusCode).toBe(200);
      expect(set.json().message).toBe(AUTH_MESSAGES.passwordSet);
      const again = await c.post('/api/auth/set-password', { email: m.user.email, code, password: 'other-pass' });
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toBe(AUTH_MESSAGES.alreadyHasPassword);
      const login = await c.post('/api/auth/email-login-secure', { email: m.user.email, password: 'fresh-pass' });
      expect(login.statusCode).toBe(200);
    });

    it('gives the spec messages for accounts that have a password or do not exist', async () => {
      const { email } = await registerAndLogin(app);
      const c = client(app);
      const has = await c.post('/api/auth/set-password/request-code', { email });
      expect(has.statusCode).toBe(409);
      expect(has.json().message).toBe(AUTH_MESSAGES.alreadyHasPassword);
      const none = await c.post('/api/auth/set-password/request-code', { email: freshEmail('none') });
      expect(none.statusCode).toBe(404);
      expect(none.json().message).toBe(AUTH_MESSAGES.noAccount);
    });

    it('a code dies after 5 wrong tries and after 10 minutes', async () => {
      const m = await createMember(app);
      const c = client(app);
      await c.post('/api/auth/set-password/request-code', { email: m.user.email });
      const code = codeIn(lastMailTo(dataDir, m.user.email));
      const wrong = code === '000000' ? '111111' : '000000';
      for (let i = 0; i < 4; i += 1) {
        const r = await c.post('/api/auth/set-password/verify-code', { email: m.user.email, code: wrong });
        expect(r.json().message).toBe(AUTH_MESSAGES.codeInvalid);
      }
      expect((await c.post('/api/auth/set-password/verify-code', { email: m.user.email, code: wrong })).json().message).toBe(AUTH_MESSAGES.codeExpired);
      const right = await c.post('/api/auth/set-password', { email: m.user.email, code, password: 'fresh-pass' });
      expect(right.statusCode).toBe(400);
      expect(right.json().message).toBe(AUTH_MESSAGES.codeExpired);

      const c2 = client(app);
      const m2 = await createMember(app);
      await c2.post('/api/auth/set-password/request-code', { email: m2.user.email });
      const code2 = codeIn(lastMailTo(dataDir, m2.user.email));
      await app.database.db
        .update(authTokens)
        .set({ expiresAt: new Date(Date.now() - 1) })
        .where(eq(authTokens.email, m2.user.email));
      expect((await c2.post('/api/auth/set-password', { email: m2.user.email, code: code2, password: 'fresh-pass' })).json().message).toBe(
        AUTH_MESSAGES.codeExpired,
      );
    });

    it('limits code requests per email (3 per 15 minutes)', async () => {
      const m = await createMember(app);
      for (let i = 0; i < 3; i += 1) expect((await client(app).post('/api/auth/set-password/request-code', { email: m.user.email })).statusCode).toBe(200);
      expect((await client(app).post('/api/auth/set-password/request-code', { email: m.user.email })).statusCode).toBe(429);
    });

    it('limits code checks per email and network (10 per 15 minutes) across new codes', async () => {
      const m = await createMember(app);
      let checks = 0;
      let status = 0;
      while (checks < 12) {
        await client(app)
          .post('/api/auth/set-password/request-code', { email: m.user.email })
          .catch(() => undefined);
        status = (await client(app).post('/api/auth/set-password/verify-code', { email: m.user.email, code: '000001' })).statusCode;
        checks += 1;
        if (status === 429) break;
      }
      expect(status).toBe(429);
      expect(checks).toBe(11);
    });
  });

  describe('forgot and reset password', () => {
    it('mails a reset link; the link sets a new password once and ends every session', async () => {
      const { email, cookie } = await registerAndLogin(app);
      const c = client(app);
      const res = await c.post('/api/auth/forgot-password', { email });
      expect(res.json().message).toBe(AUTH_MESSAGES.resetLinkSent);
      const url = linkIn(lastMailTo(dataDir, email), '/reset-password');
      expect(url.startsWith('http://localhost:3000/reset-password#token=')).toBe(true);
      expect(new URL(url).search).toBe('');
      const token = tokenIn(url);

      const short = await c.post('/api/auth/reset-password', { token, password: '12' });
      expect(short.statusCode).toBe(400);
      const ok = await c.post('/api/auth/reset-password', { token, password: 'brand-new-1' });
      expect(ok.statusCode).toBe(200);
      expect(ok.json().message).toBe(AUTH_MESSAGES.passwordReset);
      expect((await app.inject({ url: '/api/auth/me', headers: { cookie } })).statusCode).toBe(401);
      expect((await c.post('/api/auth/email-login-secure', { email, password: 'brand-new-1' })).statusCode).toBe(200);

      const reuse = await c.post('/api/auth/reset-password', { token, password: 'another-1' });
      expect(reuse.statusCode).toBe(400);
      expect(reuse.json().message).toBe(AUTH_MESSAGES.resetLinkInvalid);
    });

    it('answers the same for unknown emails and refuses expired or forged tokens', async () => {
      const ghost = freshEmail('ghost');
      const c = client(app);
      expect((await c.post('/api/auth/forgot-password', { email: ghost })).json().message).toBe(AUTH_MESSAGES.resetLinkSent);
      expect(mailsTo(ghost)).toHaveLength(0);

      const { email } = await registerAndLogin(app);
      await c.post('/api/auth/forgot-password', { email });
      const token = tokenIn(linkIn(lastMailTo(dataDir, email), '/reset-password'));
      await app.database.db
        .update(authTokens)
        .set({ expiresAt: new Date(Date.now() - 1) })
        .where(eq(authTokens.email, email));
      expect((await c.post('/api/auth/reset-password', { token, password: 'brand-new-1' })).statusCode).toBe(400);
      expect((await c.post('/api/auth/reset-password', { token: 'f'.repeat(43), password: 'brand-new-1' })).statusCode).toBe(400);
      expect((await c.post('/api/auth/reset-password', { token: 'f'.repeat(1000), password: 'brand-new-1' })).statusCode).toBe(400);
      expect((await c.post('/api/auth/reset-password', { password: 'brand-new-1' })).statusCode).toBe(400);
    });

    it('limits reset requests per email (3 per 15 minutes)', async () => {
      const { email } = await registerAndLogin(app);
      for (let i = 0; i < 3; i += 1) expect((await client(app).post('/api/auth/forgot-password', { email })).statusCode).toBe(200);
      expect((await client(app).post('/api/auth/forgot-password', { email })).statusCode).toBe(429);
    });
  });
});

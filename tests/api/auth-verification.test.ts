import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '../../src/contracts/auth';
import { users } from '../../src/server/db/schema';
import { parsePatreonMember } from '../../src/server/modules/platforms/clients';
import { upsertPlatformRecords } from '../../src/server/modules/platforms/platforms-repository';
import { reconcileUsers } from '../../src/server/modules/platforms/reconcile-service';
import { createMember, createTestApp } from '../support/app';
import { client, freshEmail, sessionCookie } from '../support/auth-client';
import { lastMailTo, linkIn, readOutbox, tempDataDir, tokenIn } from '../support/outbox';
import { patreonMember } from '../support/platform-stubs';

const PATREON_SECRET = 'patreon-webhook-secret';

/** ADR 0013: a paid tier follows an email only once the account has proven it. */
describe('verified email before money follows an address', async () => {
  const dataDir = tempDataDir();
  const app = await createTestApp({ DATA_DIR: dataDir, PATREON_WEBHOOK_SECRET: PATREON_SECRET });
  const db = app.database.db;
  const userByEmail = async (email: string) => (await db.select().from(users).where(eq(users.email, email)))[0];
  const verifyToken = (email: string) => tokenIn(linkIn(lastMailTo(dataDir, email), '/verify-email'));

  /** Stores an active €10 Patreon pledge (VIP) for `email`, as the sync would. */
  async function storePledge(email: string) {
    const record = parsePatreonMember(patreonMember({ email, status: 'active_patron', cents: 1000 }));
    if (!record) throw new Error('stub record');
    await upsertPlatformRecords(db, [record], 'sync');
  }

  async function register(email: string, password = 'thief-pass-1') {
    const c = client(app);
    const res = await c.post('/api/auth/register', { email, password, username: 'someone' });
    expect(res.statusCode, res.body).toBe(201);
    return res;
  }

  it('registration mails a confirmation link (token in the #fragment); pressing confirm verifies once', async () => {
    const email = freshEmail('new');
    const res = await register(email);
    expect(res.json().message).toBe(AUTH_MESSAGES.registrationSuccess);
    expect((await userByEmail(email))?.emailVerifiedAt).toBeNull();

    const mail = lastMailTo(dataDir, email);
    expect(mail.subject).toBe('Confirm your Deep House Radio email');
    const url = linkIn(mail, '/verify-email');
    expect(url.startsWith('http://localhost:3000/verify-email#token=')).toBe(true);

    // Opening the page (a GET, what scanners do) verifies nothing.
    await client(app).get(url.replace('http://localhost:3000', ''));
    expect((await userByEmail(email))?.emailVerifiedAt).toBeNull();

    // The inbox alone does not confirm: the registrant's password (or session) must come with it.
    const bare = await client(app).post('/api/auth/verify-email', { token: tokenIn(url) });
    expect(bare.statusCode).toBe(400);
    expect(bare.json()).toMatchObject({ error: { code: 'password_required', message: AUTH_MESSAGES.verifyNeedsPassword } });
    const wrong = await client(app).post('/api/auth/verify-email', { token: tokenIn(url), password: 'not-it-1' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().message).toBe(AUTH_MESSAGES.verifyWrongPassword);
    expect((await userByEmail(email))?.emailVerifiedAt).toBeNull();

    const ok = await client(app).post('/api/auth/verify-email', { token: tokenIn(url), password: 'thief-pass-1' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().message).toBe(AUTH_MESSAGES.emailConfirmed);
    expect((await userByEmail(email))?.emailVerifiedAt).toBeInstanceOf(Date);

    const again = await client(app).post('/api/auth/verify-email', { token: tokenIn(url), password: 'thief-pass-1' });
    expect(again.statusCode).toBe(400);
    expect(again.json().error.code).toBe('link_invalid');
    for (const payload of [{}, { token: 'x'.repeat(43) }, { token: 7 }, { token: 'y'.repeat(10_000) }]) {
      expect((await client(app).post('/api/auth/verify-email', payload)).statusCode).toBe(400);
    }
  });

  it("registers a known supporter's email with the same reply, but sync and webhooks grant it nothing until verified", async () => {
    const email = freshEmail('supporter');
    await storePledge(email);
    app.modules.platformSubscribers.register(async (e) =>
      e === email ? { email, tier: 'vip', status: 'active', expiry: null, source: 'patreon', pledgeAmountCents: 1000 } : null,
    );
    const res = await register(email);
    expect(res.json().message).toBe(AUTH_MESSAGES.registrationSuccess);

    // The sync's reconcile and a signed webhook both leave the unverified account free.
    expect((await reconcileUsers(db, { allWithRecords: true }, { cause: 'sync' })).changed).toBe(0);
    const body = JSON.stringify({ data: patreonMember({ email, status: 'active_patron', cents: 1000 }) });
    const hook = await app.inject({
      method: 'POST',
      url: '/api/webhooks/patreon',
      headers: {
        'content-type': 'application/json',
        'x-patreon-event': 'members:pledge:create',
        'x-patreon-signature': createHmac('md5', PATREON_SECRET).update(body).digest('hex'),
      },
      payload: body,
    });
    expect(hook.statusCode, hook.body).toBe(200);
    expect(await userByEmail(email)).toMatchObject({ subscriptionTier: 'free', emailVerifiedAt: null });

    // Confirming while signed in as the account needs no password; it applies the stored pledge at once.
    const c = client(app);
    const login = await c.post('/api/auth/email-login-secure', { email, password: 'thief-pass-1' });
    expect((await c.post('/api/auth/verify-email', { token: verifyToken(email) }, sessionCookie(login))).statusCode).toBe(200);
    expect(await userByEmail(email)).toMatchObject({ subscriptionTier: 'vip', subscriptionStatus: 'active', subscriptionSource: 'patreon' });
  });

  it("the first link sign-in into an unverified account clears the registrant's password and ends their sessions", async () => {
    const email = freshEmail('victim');
    await storePledge(email);
    await register(email, 'attacker-pass');
    const confirmToken = verifyToken(email);
    const attacker = client(app);
    const attackerLogin = await attacker.post('/api/auth/email-login-secure', { email, password: 'attacker-pass' });
    const attackerCookie = sessionCookie(attackerLogin);
    expect(attackerLogin.json().user.subscriptionTier).toBe('free');

    // The owner of the inbox signs in by link.
    await client(app).post('/api/auth/simple-login', { email });
    const token = tokenIn(linkIn(lastMailTo(dataDir, email), '/simple-auth/link'));
    const owner = await client(app).post('/api/auth/magic', { token });
    expect(owner.statusCode, owner.body).toBe(200);
    expect(owner.json().user).toMatchObject({ email, hasPassword: false, subscriptionTier: 'vip' });

    const row = await userByEmail(email);
    expect(row?.passwordHash).toBeNull();
    expect(row?.emailVerifiedAt).toBeInstanceOf(Date);
    expect((await app.inject({ url: '/api/auth/me', headers: { cookie: attackerCookie } })).statusCode).toBe(401);
    expect((await app.inject({ url: '/api/auth/me', headers: { cookie: sessionCookie(owner) } })).statusCode).toBe(200);
    expect((await attacker.post('/api/auth/email-login-secure', { email, password: 'attacker-pass' })).statusCode).toBe(401);
    // The confirmation link sent at registration is of no use to the registrant any more: it ended
    // with the credentials (credentialsChanged).
    expect((await client(app).post('/api/auth/verify-email', { token: confirmToken, password: 'attacker-pass' })).statusCode).toBe(400);
    expect((await userByEmail(email))?.passwordHash).toBeNull();
  });

  it('a password reset by emailed link also proves the email', async () => {
    const email = freshEmail('reset');
    await storePledge(email);
    await register(email);
    await client(app).post('/api/auth/forgot-password', { email });
    const token = tokenIn(linkIn(lastMailTo(dataDir, email), '/reset-password'));
    expect((await client(app).post('/api/auth/reset-password', { token, password: 'owner-pass-1' })).statusCode).toBe(200);
    expect(await userByEmail(email)).toMatchObject({ subscriptionTier: 'vip', passwordHash: expect.any(String) });
    expect((await userByEmail(email))?.emailVerifiedAt).toBeInstanceOf(Date);
  });

  it('members added by an admin, by import or by quick assign count as verified', async () => {
    const admin = await createMember(app, { isAdmin: true });
    const post = (url: string, payload: object) => app.inject({ method: 'POST', url, headers: { cookie: admin.cookie }, payload });
    const created = freshEmail('created');
    const imported = freshEmail('imported');
    const assigned = freshEmail('assigned');
    expect(
      (
        await post('/api/admin/users', {
          email: created,
          username: 'c',
          subscriptionTier: 'free',
          subscriptionStatus: 'inactive',
          subscriptionSource: 'admin',
          expiryDays: 0,
          pledgeAmount: 0,
          isAdmin: false,
        })
      ).statusCode,
    ).toBe(201);
    expect(
      (
        await post('/api/admin/bulk-import', {
          csvContent: `email,firstName,lastName,subscriptionTier,subscriptionStatus,subscriptionExpiry,pledgeAmount,source\n${imported},,,dhr1,active,,5,patreon`,
        })
      ).statusCode,
    ).toBe(200);
    // Quick assign onto an unverified registration: the admin vouches for the address.
    await register(assigned);
    expect((await post('/api/admin/assign-tier', { email: assigned, tier: 'DHR1' })).statusCode).toBe(200);
    for (const email of [created, imported, assigned]) expect((await userByEmail(email))?.emailVerifiedAt, email).toBeInstanceOf(Date);
  });

  it('sends mail after the reply: a known and an unknown email get the same answer, and mail still arrives', async () => {
    const known = await createMember(app);
    const ghost = freshEmail('ghost');
    const before = readOutbox(dataDir).length;
    const answers = [];
    for (const email of [known.user.email, ghost]) {
      const res = await app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email }, remoteAddress: '10.200.0.1' });
      answers.push({ status: res.statusCode, body: res.body });
    }
    expect(answers[0]).toEqual(answers[1]);
    await app.mailer.idle();
    expect(readOutbox(dataDir).length).toBe(before + 1);
    expect(lastMailTo(dataDir, known.user.email).subject).toBe('Reset your Deep House Radio password');
  });
});

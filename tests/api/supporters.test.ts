import { createHmac } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '../../src/contracts/auth';
import { SUPPORTER_MESSAGES } from '../../src/contracts/supporters';
import { authTokens, platformLinks, users } from '../../src/server/db/schema';
import { createMember, createTestApp, memberWithRole, type TestMember } from '../support/app';
import { client, freshEmail, sessionCookie } from '../support/auth-client';
import { codeIn, lastMailTo, linkIn, readOutbox, tempDataDir, tokenIn } from '../support/outbox';
import { bmcSubscription, patreonMember, startBmcStub, startPatreonStub } from '../support/platform-stubs';

const PATREON_TOKEN = 'creator-token';
const BMC_TOKEN = 'bmc-token';
const CAMPAIGN = '777';
const CLIENT = { clientId: 'dhr-client', clientSecret: 'dhr-secret' };
const WEBHOOK_SECRET = 'bmc-webhook-secret';

describe('supporters who pay under another email', async () => {
  const patreon = await startPatreonStub({ token: PATREON_TOKEN, campaignId: CAMPAIGN, oauth: CLIENT });
  const bmc = await startBmcStub({ token: BMC_TOKEN });
  afterAll(async () => {
    await patreon.close();
    await bmc.close();
  });
  const dataDir = tempDataDir();
  const app = await createTestApp({
    DATA_DIR: dataDir,
    PATREON_API_URL: patreon.url,
    PATREON_ACCESS_TOKEN: PATREON_TOKEN,
    PATREON_CAMPAIGN_ID: CAMPAIGN,
    PATREON_CLIENT_ID: CLIENT.clientId,
    PATREON_CLIENT_SECRET: CLIENT.clientSecret,
    BMC_API_URL: bmc.url,
    BMC_ACCESS_TOKEN: BMC_TOKEN,
    BMC_WEBHOOK_SECRET: WEBHOOK_SECRET,
    PATREON_WEBHOOK_SECRET: WEBHOOK_SECRET,
  });
  const db = app.database.db;
  const admin = await memberWithRole(app, 'admin');
  const userById = async (id: string) => (await db.select().from(users).where(eq(users.id, id)))[0];
  const linksOf = (id: string) => db.select().from(platformLinks).where(eq(platformLinks.userId, id));
  const sync = async () => {
    const res = await app.inject({ method: 'POST', url: '/api/admin/sync-subscriptions', headers: { cookie: admin.cookie }, payload: {} });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ updated: number }>();
  };
  const adminGet = (url: string) => app.inject({ method: 'GET', url, headers: { cookie: admin.cookie } });

  /** Runs Connect Patreon as the member's browser would: authorize, Patreon's redirect back, the return page's POST. */
  async function connectPatreon(m: TestMember) {
    const c = client(app);
    const start = await c.post('/api/supporters/patreon/authorize', {}, m.cookie);
    expect(start.statusCode, start.body).toBe(200);
    const consent = await fetch(start.json<{ url: string }>().url, { redirect: 'manual' });
    expect(consent.status).toBe(302);
    const back = new URL(consent.headers.get('location') ?? '');
    return c.post('/api/supporters/patreon/callback', { code: back.searchParams.get('code'), state: back.searchParams.get('state') }, m.cookie);
  }

  describe('Connect Patreon', () => {
    it('a ban follows the Patreon user: another account connecting it after the banned one let it go is banned too, and told so', async () => {
      const a = await createMember(app);
      patreon.oauth.consentUser = {
        id: 'pu-banned',
        email: freshEmail('patron-banned'),
        fullName: 'Banned Patron',
        memberships: [{ campaignId: CAMPAIGN, status: 'active_patron', cents: 300 }],
      };
      expect((await connectPatreon(a)).json().message).toBe(SUPPORTER_MESSAGES.patreonConnected);
      const ban = await app.inject({
        method: 'POST',
        url: `/api/admin/users/${a.user.id}/ban-comments`,
        headers: { cookie: admin.cookie },
        payload: { reason: 'Spam' },
      });
      expect(ban.statusCode).toBe(200);
      expect((await app.inject({ method: 'DELETE', url: '/api/supporters/patreon', headers: { cookie: a.cookie } })).statusCode).toBe(200);

      const b = await createMember(app);
      const res = await connectPatreon(b);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().message).toBe(`${SUPPORTER_MESSAGES.patreonConnected} ${SUPPORTER_MESSAGES.linkedBanned('Spam')}`);
      const refused = await client(app).post('/api/comments', { articleId: 'homepage', content: 'Hello from the second account' }, b.cookie);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error.code).toBe('banned');
    });

    it('runs the documented OAuth flow and gives the tier at once, though the Patreon email differs', async () => {
      const m = await createMember(app);
      const patreonEmail = freshEmail('patron-elsewhere');
      patreon.oauth.consentUser = {
        id: 'pu-100',
        email: patreonEmail,
        fullName: 'Aoife Elsewhere',
        memberships: [{ campaignId: CAMPAIGN, status: 'active_patron', cents: 1000 }],
      };
      patreon.requests.length = 0;

      const links = await client(app).get('/api/supporters/links', m.cookie);
      expect(links.json()).toEqual({ patreon: { available: true, connectedAt: null }, payerEmails: [] });

      const start = await client(app).post('/api/supporters/patreon/authorize', {}, m.cookie);
      const url = new URL(start.json<{ url: string }>().url);
      expect(`${url.origin}${url.pathname}`).toBe(`${patreon.url}/oauth2/authorize`);
      expect(Object.fromEntries(url.searchParams)).toMatchObject({
        response_type: 'code',
        client_id: CLIENT.clientId,
        redirect_uri: 'http://localhost:3000/auth/patreon',
        scope: 'identity identity[email] identity.memberships',
      });
      expect(url.searchParams.get('state')?.length).toBeGreaterThanOrEqual(43);

      const res = await connectPatreon(m);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ message: SUPPORTER_MESSAGES.patreonConnected, subscriptionTier: 'vip', subscriptionStatus: 'active' });
      expect(await userById(m.user.id)).toMatchObject({ subscriptionTier: 'vip', subscriptionSource: 'patreon', pledgeAmountCents: 1000 });
      expect(await linksOf(m.user.id)).toMatchObject([{ platform: 'patreon', kind: 'user_id', key: 'pu-100', via: 'oauth' }]);

      // The token exchange is a form POST with the client's secret; the identity call includes memberships.
      const token = patreon.requests.find((r) => r.path === '/api/oauth2/token');
      const form = new URLSearchParams(token?.body);
      expect(Object.fromEntries(form)).toMatchObject({ grant_type: 'authorization_code', client_id: CLIENT.clientId, client_secret: CLIENT.clientSecret });
      const identity = patreon.requests.find((r) => r.path === '/api/oauth2/v2/identity');
      expect(identity?.query.get('include')).toBe('memberships,memberships.campaign');
      expect(identity?.authorization).toMatch(/^Bearer token-/);

      const after = await client(app).get('/api/supporters/links', m.cookie);
      expect(after.json().patreon.connectedAt).toEqual(expect.any(String));
    });

    it('refuses a wrong state, a state of another session and a used state, and links nothing', async () => {
      const m = await createMember(app);
      patreon.oauth.consentUser = { id: 'pu-200', email: freshEmail('p'), memberships: [{ campaignId: CAMPAIGN, status: 'active_patron', cents: 500 }] };
      const start = await client(app).post('/api/supporters/patreon/authorize', {}, m.cookie);
      const consent = await fetch(start.json<{ url: string }>().url, { redirect: 'manual' });
      const back = new URL(consent.headers.get('location') ?? '');
      const code = back.searchParams.get('code');
      const state = back.searchParams.get('state');

      const wrong = await client(app).post('/api/supporters/patreon/callback', { code, state: 'not-the-state' }, m.cookie);
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json()).toMatchObject({ error: { code: 'invalid_state', message: SUPPORTER_MESSAGES.patreonStateInvalid } });

      // The same member in another session (another browser) cannot bring this state back.
      const otherSession = await createMember(app);
      const other = await client(app).post('/api/supporters/patreon/callback', { code, state }, otherSession.cookie);
      expect(other.statusCode).toBe(400);
      expect(await linksOf(m.user.id)).toEqual([]);
      expect((await userById(m.user.id))?.subscriptionTier).toBe('free');

      const ok = await client(app).post('/api/supporters/patreon/callback', { code, state }, m.cookie);
      expect(ok.statusCode, ok.body).toBe(200);
      const replay = await client(app).post('/api/supporters/patreon/callback', { code, state }, m.cookie);
      expect(replay.statusCode).toBe(400);

      // Patreon's Deny comes back without a code: the page says so, nothing is asked of the server.
      expect((await client(app).post('/api/supporters/patreon/callback', { state }, m.cookie)).statusCode).toBe(400);
    });

    it('matches by the linked Patreon user id before the email: a changed Patreon email keeps the tier, the email owner gets nothing', async () => {
      const m = await createMember(app);
      const firstEmail = freshEmail('first');
      patreon.oauth.consentUser = { id: 'pu-300', email: firstEmail, memberships: [{ campaignId: CAMPAIGN, status: 'active_patron', cents: 500 }] };
      expect((await connectPatreon(m)).json().subscriptionTier).toBe('dhr2');

      // On Patreon the member changes their email to one another DHR account uses.
      const bystander = await createMember(app, { email: freshEmail('bystander') });
      patreon.state.items = [patreonMember({ email: bystander.user.email, status: 'active_patron', cents: 1000, userId: 'pu-300' })];
      bmc.state.items = [];
      await sync();
      expect(await userById(m.user.id)).toMatchObject({ subscriptionTier: 'vip', subscriptionStatus: 'active', subscriptionSource: 'patreon' });
      expect(await userById(bystander.user.id)).toMatchObject({ subscriptionTier: 'free', subscriptionStatus: 'inactive' });

      // A webhook under the new email matches by the id too.
      const doc = JSON.stringify({
        data: patreonMember({ email: bystander.user.email, status: 'active_patron', cents: 300, userId: 'pu-300', lastChargeDate: new Date().toISOString() }),
      });
      const hook = await app.inject({
        method: 'POST',
        url: '/api/webhooks/patreon',
        headers: {
          'content-type': 'application/json',
          'x-patreon-event': 'members:pledge:update',
          'x-patreon-signature': createHmac('md5', WEBHOOK_SECRET).update(doc).digest('hex'),
        },
        payload: doc,
      });
      expect(hook.json()).toMatchObject({ applied: true, updated: 1 });
      expect(await userById(m.user.id)).toMatchObject({ subscriptionTier: 'dhr1', subscriptionSource: 'patreon' });
      expect((await userById(bystander.user.id))?.subscriptionTier).toBe('free');
      const records = await adminGet(`/api/admin/users/${m.user.id}/platform-records`);
      expect(records.json()).toMatchObject([{ platform: 'patreon', email: bystander.user.email, tier: 'dhr1', matchedBy: 'oauth' }]);

      // Disconnect: the Patreon access goes; the record is then the bystander's email match again.
      const off = await app.inject({ method: 'DELETE', url: '/api/supporters/patreon', headers: { cookie: m.cookie } });
      expect(off.statusCode, off.body).toBe(200);
      expect(off.json()).toMatchObject({ message: SUPPORTER_MESSAGES.patreonDisconnected, subscriptionStatus: 'cancelled' });
      expect(await linksOf(m.user.id)).toEqual([]);
      const again = await app.inject({ method: 'DELETE', url: '/api/supporters/patreon', headers: { cookie: m.cookie } });
      expect(again.statusCode).toBe(404);
    });

    it('is hidden and refused when PATREON_CLIENT_ID/SECRET are unset', async () => {
      const m = await createMember(app);
      // The settings are read on each request: unset them for this test only.
      const saved = { id: app.config.PATREON_CLIENT_ID, secret: app.config.PATREON_CLIENT_SECRET };
      try {
        for (const unset of [{ PATREON_CLIENT_ID: undefined }, { PATREON_CLIENT_SECRET: undefined }]) {
          Object.assign(app.config, { PATREON_CLIENT_ID: saved.id, PATREON_CLIENT_SECRET: saved.secret }, unset);
          const links = await client(app).get('/api/supporters/links', m.cookie);
          expect(links.json().patreon.available).toBe(false);
          const start = await client(app).post('/api/supporters/patreon/authorize', {}, m.cookie);
          expect(start.statusCode).toBe(404);
          expect(start.json().error).toEqual({ code: 'patreon_not_configured', message: SUPPORTER_MESSAGES.patreonNotConfigured });
        }
      } finally {
        Object.assign(app.config, { PATREON_CLIENT_ID: saved.id, PATREON_CLIENT_SECRET: saved.secret });
      }
      expect((await client(app).post('/api/supporters/patreon/authorize', {})).statusCode).toBe(401);
    });
  });

  describe('claim a Buy Me a Coffee payment by code', () => {
    it('mails a code to the payer email; the right code links it and gives the tier at once', async () => {
      const m = await createMember(app);
      const payer = freshEmail('coffee-payer');
      bmc.state.items = [bmcSubscription({ email: payer, price: '5.000' })];
      patreon.state.items = [];
      await sync();
      expect((await userById(m.user.id))?.subscriptionTier).toBe('free');

      const c = client(app);
      const asked = await c.post('/api/supporters/claims', { email: payer.toUpperCase() }, m.cookie);
      expect(asked.statusCode, asked.body).toBe(200);
      expect(asked.json().message).toBe(SUPPORTER_MESSAGES.claimCodeSent);
      const mail = lastMailTo(dataDir, payer);
      expect(mail.subject).toBe('Link your Buy Me a Coffee payment to Deep House Radio');
      // The payer address is unproven, so the mail names nobody.
      expect(mail.body).not.toContain(m.user.email);
      expect(mail.body).not.toContain(m.user.username);
      const code = codeIn(mail);

      const wrongCode = code === '000000' ? '111111' : '000000';
      const wrong = await c.post('/api/supporters/claims/confirm', { email: payer, code: wrongCode }, m.cookie);
      expect(wrong.json()).toMatchObject({ error: { code: 'code_invalid', message: AUTH_MESSAGES.codeInvalid } });
      // Another member cannot use the code mailed for this one.
      const intruder = await createMember(app);
      expect((await c.post('/api/supporters/claims/confirm', { email: payer, code }, intruder.cookie)).statusCode).toBe(400);
      expect(await linksOf(intruder.user.id)).toEqual([]);

      const m2 = await createMember(app);
      await c.post('/api/supporters/claims', { email: payer }, m2.cookie);
      // m2 asked last: only m2's code is live now; m asks again and confirms.
      await c.post('/api/supporters/claims', { email: payer }, m.cookie);
      const ok = await c.post('/api/supporters/claims/confirm', { email: payer, code: codeIn(lastMailTo(dataDir, payer)) }, m.cookie);
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json()).toEqual({ message: SUPPORTER_MESSAGES.claimLinked, subscriptionTier: 'dhr2', subscriptionStatus: 'active' });
      expect(await userById(m.user.id)).toMatchObject({ subscriptionTier: 'dhr2', subscriptionSource: 'buymeacoffee', pledgeAmountCents: 500 });
      const links = await client(app).get('/api/supporters/links', m.cookie);
      expect(links.json().payerEmails).toEqual([{ email: payer, linkedAt: expect.any(String) }]);

      // The next sync keeps it: the link is how the record reaches the member.
      await sync();
      expect((await userById(m.user.id))?.subscriptionTier).toBe('dhr2');
      const records = await adminGet(`/api/admin/users/${m.user.id}/platform-records`);
      expect(records.json()).toMatchObject([{ platform: 'buymeacoffee', email: payer, matchedBy: 'claim', tier: 'dhr2', status: 'active' }]);

      // Removing the link takes the access it gave.
      const removed = await c.post('/api/supporters/claims/remove', { email: payer }, m.cookie);
      expect(removed.json()).toMatchObject({ message: SUPPORTER_MESSAGES.claimRemoved, subscriptionStatus: 'cancelled' });
    });

    it('expires codes, caps the tries and refuses own or other accounts’ emails', async () => {
      const m = await createMember(app);
      const payer = freshEmail('capped');
      const c = client(app);
      await c.post('/api/supporters/claims', { email: payer }, m.cookie);
      const code = codeIn(lastMailTo(dataDir, payer));
      const wrongCode = code === '000000' ? '111111' : '000000';
      for (let i = 0; i < 5; i++) await c.post('/api/supporters/claims/confirm', { email: payer, code: wrongCode }, m.cookie);
      const capped = await c.post('/api/supporters/claims/confirm', { email: payer, code }, m.cookie);
      expect(capped.json()).toMatchObject({ error: { code: 'code_expired', message: AUTH_MESSAGES.codeExpired } });

      const payer2 = freshEmail('expiring');
      await client(app).post('/api/supporters/claims', { email: payer2 }, m.cookie);
      const code2 = codeIn(lastMailTo(dataDir, payer2));
      await db
        .update(authTokens)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(and(eq(authTokens.email, payer2), eq(authTokens.kind, 'payer_claim')));
      const expired = await client(app).post('/api/supporters/claims/confirm', { email: payer2, code: code2 }, m.cookie);
      expect(expired.json().error.code).toBe('code_expired');
      expect(await linksOf(m.user.id)).toEqual([]);

      const own = await client(app).post('/api/supporters/claims', { email: m.user.email }, m.cookie);
      expect(own.json()).toMatchObject({ error: { code: 'own_email', message: SUPPORTER_MESSAGES.claimOwnEmail } });
      const other = await createMember(app);
      const taken = await client(app).post('/api/supporters/claims', { email: other.user.email }, m.cookie);
      expect(taken.statusCode).toBe(409);
    });

    it('is rate-limited per payer email', async () => {
      const m = await createMember(app);
      const payer = freshEmail('flood');
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await client(app).post('/api/supporters/claims', { email: payer }, m.cookie)).statusCode);
      expect(statuses).toEqual([200, 200, 200, 429]);
      await app.mailer.idle();
      expect(readOutbox(dataDir).filter((x) => x.to.includes(payer))).toHaveLength(3);
    });
  });

  describe('reconciliation, the sync log and grants by source', () => {
    it('lists active supporters matching no account, links one to a member, invites another, and counts them on the dashboard', async () => {
      const linkedLater = freshEmail('unmatched-a');
      const invited = freshEmail('unmatched-b');
      patreon.state.items = [
        patreonMember({ email: linkedLater, status: 'active_patron', cents: 300, fullName: 'Una Matched', userId: 'pu-900' }),
        patreonMember({ email: freshEmail('former'), status: 'former_patron', cents: 0 }),
      ];
      bmc.state.items = [bmcSubscription({ email: invited, price: '10.000' })];
      await sync();

      const list = await adminGet('/api/admin/supporters/unmatched');
      expect(list.statusCode).toBe(200);
      const body = list.json<{ total: number; supporters: { email: string }[] }>();
      expect(body.total).toBe(2);
      expect(body.supporters).toEqual(
        expect.arrayContaining([
          { platform: 'patreon', email: linkedLater, name: 'Una Matched', amountCents: 300, tier: 'dhr1', since: '2025-01-01T00:00:00.000Z' },
          { platform: 'buymeacoffee', email: invited, name: 'Bea Coffee', amountCents: 1000, tier: 'vip', since: '2026-01-01T10:00:00.000Z' },
        ]),
      );
      const stats = await adminGet('/api/admin/stats');
      expect(stats.json().unmatchedSupporters).toBe(2);

      // Link: the member found by search gets the tier; the list shrinks.
      const m = await createMember(app);
      const link = await app.inject({
        method: 'POST',
        url: '/api/admin/supporters/link',
        headers: { cookie: admin.cookie },
        payload: { platform: 'patreon', email: linkedLater, userId: m.user.id },
      });
      expect(link.statusCode, link.body).toBe(200);
      expect(await userById(m.user.id)).toMatchObject({ subscriptionTier: 'dhr1', subscriptionSource: 'patreon' });
      expect(await linksOf(m.user.id)).toMatchObject([{ kind: 'user_id', key: 'pu-900', via: 'admin' }]);
      expect((await adminGet('/api/admin/supporters/unmatched')).json().supporters.map((s: { email: string }) => s.email)).toEqual([invited]);

      // Invite: a sign-in link to the payer email creates the account with the tier.
      const invite = await app.inject({
        method: 'POST',
        url: '/api/admin/supporters/invite',
        headers: { cookie: admin.cookie },
        payload: { platform: 'buymeacoffee', email: invited },
      });
      expect(invite.json().message).toBe(SUPPORTER_MESSAGES.supporterInvited);
      await app.mailer.idle();
      const token = tokenIn(linkIn(lastMailTo(dataDir, invited), '/simple-auth/link'));
      const signIn = await client(app).post('/api/auth/magic', { token });
      expect(signIn.statusCode, signIn.body).toBe(200);
      expect(sessionCookie(signIn)).not.toBe('');
      expect(signIn.json().user).toMatchObject({ email: invited, subscriptionTier: 'vip', subscriptionSource: 'buymeacoffee' });
      expect((await adminGet('/api/admin/supporters/unmatched')).json().total).toBe(0);

      // Unknown records and members are 404s that change nothing; members may not use these routes.
      const gone = await app.inject({
        method: 'POST',
        url: '/api/admin/supporters/invite',
        headers: { cookie: admin.cookie },
        payload: { platform: 'patreon', email: freshEmail('nobody') },
      });
      expect(gone.statusCode).toBe(404);
      const noMember = await app.inject({
        method: 'POST',
        url: '/api/admin/supporters/link',
        headers: { cookie: admin.cookie },
        payload: { platform: 'buymeacoffee', email: invited, userId: '00000000-0000-4000-8000-000000000000' },
      });
      expect(noMember.statusCode).toBe(404);
      expect((await app.inject({ method: 'GET', url: '/api/admin/supporters/unmatched', headers: { cookie: m.cookie } })).statusCode).toBe(403);
    });

    it('records each sync and webhook in the sync log: matched, unmatched, changed, errors per platform, and the lines of one run', async () => {
      const m = await createMember(app, { email: freshEmail('logged') });
      const stranger = freshEmail('stranger');
      patreon.state.items = [
        patreonMember({ email: m.user.email, status: 'active_patron', cents: 500 }),
        patreonMember({ email: stranger, status: 'active_patron', cents: 300 }),
      ];
      bmc.state.items = [];
      bmc.state.failures = [{ status: 401, body: { error_code: 401, reason: 'Unauthenticated.' } }];
      await sync();

      const runs = await adminGet('/api/admin/sync-runs?limit=5');
      expect(runs.statusCode).toBe(200);
      const [latest] = runs.json<
        {
          id: number;
          trigger: string;
          ok: boolean;
          platforms: { platform: string; matched: number; unmatched: number; changed: number }[];
          errors: string[];
        }[]
      >();
      expect(latest).toMatchObject({ trigger: 'manual', ok: false });
      expect(latest?.errors[0]).toContain('Buy Me a Coffee: 401');
      const patreonFigures = latest?.platforms.find((p) => p.platform === 'patreon');
      expect(patreonFigures).toMatchObject({ matched: 1, unmatched: 1 });

      const run = await adminGet(`/api/admin/sync-runs/${latest?.id}`);
      const entries = run.json<{ entries: { kind: string; platform: string }[] }>().entries;
      expect(entries.filter((e) => e.kind === 'changed' && e.platform === 'patreon')).toHaveLength(patreonFigures?.changed ?? -1);
      expect(entries).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            kind: 'changed',
            platform: 'patreon',
            email: m.user.email,
            userId: m.user.id,
            from: 'free inactive (admin)',
            to: 'dhr2 active (patreon)',
          }),
          expect.objectContaining({ kind: 'unmatched', platform: 'patreon', email: stranger }),
        ]),
      );
      expect((await adminGet('/api/admin/sync-runs/999999')).statusCode).toBe(404);

      // A webhook delivery is a run of its own, with what it did.
      const payload = JSON.stringify({
        type: 'membership.started',
        event_id: `evt-${Date.now()}`,
        data: { supporter_email: m.user.email, amount: 10, status: 'active' },
      });
      const hook = await app.inject({
        method: 'POST',
        url: '/api/webhooks/buymeacoffee',
        headers: { 'content-type': 'application/json', 'x-signature-sha256': createHmac('sha256', WEBHOOK_SECRET).update(payload).digest('hex') },
        payload,
      });
      expect(hook.json()).toMatchObject({ applied: true, updated: 1 });
      const [webhookRun] = (await adminGet('/api/admin/sync-runs?limit=1')).json<{ id: number; trigger: string; note: string; platforms: unknown[] }[]>();
      expect(webhookRun).toMatchObject({
        trigger: 'webhook',
        note: 'membership.started: applied',
        platforms: [{ platform: 'buymeacoffee', matched: 1, changed: 1 }],
      });
      const hookRun = await adminGet(`/api/admin/sync-runs/${webhookRun?.id}`);
      expect(hookRun.json().entries).toContainEqual(expect.objectContaining({ kind: 'changed', email: m.user.email, to: 'vip active (buymeacoffee)' }));
      expect((await adminGet('/api/admin/sync-runs?webhooks=false&limit=1')).json()[0].trigger).toBe('manual');
      // The dashboard's "last sync" still reads syncs only.
      const status = await adminGet('/api/admin/system-status');
      expect(status.json().lastSync.trigger).toBe('manual');
    });

    it('takes away only what a platform gave: an admin grant and the other platform’s grant survive a complete listing', async () => {
      const adminGranted = await createMember(app, { subscriptionTier: 'vip', subscriptionStatus: 'active', subscriptionSource: 'admin' });
      const coffee = await createMember(app, { email: freshEmail('coffee-only') });
      const claimed = await createMember(app);
      const claimedPayer = freshEmail('claimed-payer');
      await db.insert(platformLinks).values({ platform: 'buymeacoffee', kind: 'email', key: claimedPayer, userId: claimed.user.id, via: 'claim' });
      const patron = await createMember(app, { email: freshEmail('patron-leaving') });
      patreon.state.items = [patreonMember({ email: patron.user.email, status: 'active_patron', cents: 500 })];
      bmc.state.items = [bmcSubscription({ email: coffee.user.email, price: '3.000' }), bmcSubscription({ email: claimedPayer, price: '5.000' })];
      await sync();
      expect(await userById(patron.user.id)).toMatchObject({ subscriptionTier: 'dhr2', subscriptionSource: 'patreon' });
      expect(await userById(claimed.user.id)).toMatchObject({ subscriptionTier: 'dhr2', subscriptionSource: 'buymeacoffee' });

      // Patreon's complete listing no longer has anyone; BMC fails this time.
      patreon.state.items = [];
      bmc.state.failures = [{ status: 401 }];
      await sync();
      expect(await userById(patron.user.id)).toMatchObject({ subscriptionStatus: 'cancelled', subscriptionSource: 'patreon' });
      expect(await userById(adminGranted.user.id)).toMatchObject({ subscriptionTier: 'vip', subscriptionStatus: 'active', subscriptionSource: 'admin' });
      expect(await userById(coffee.user.id)).toMatchObject({ subscriptionTier: 'dhr1', subscriptionStatus: 'active', subscriptionSource: 'buymeacoffee' });
      expect(await userById(claimed.user.id)).toMatchObject({ subscriptionTier: 'dhr2', subscriptionStatus: 'active', subscriptionSource: 'buymeacoffee' });

      // BMC's complete listing without them takes what BMC gave, and only that.
      bmc.state.items = [];
      await sync();
      expect(await userById(coffee.user.id)).toMatchObject({ subscriptionStatus: 'cancelled' });
      expect(await userById(claimed.user.id)).toMatchObject({ subscriptionStatus: 'cancelled' });
      expect(await userById(adminGranted.user.id)).toMatchObject({ subscriptionTier: 'vip', subscriptionStatus: 'active' });
    });
  });
});

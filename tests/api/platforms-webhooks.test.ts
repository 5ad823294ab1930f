import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { platformSubscriptions, users, webhookDeliveries } from '../../src/server/db/schema';
import { pruneOldRecords } from '../../src/server/modules/platforms/platforms-repository';
import { createMember, createTestApp, readMetrics } from '../support/app';
import { lastMailTo, linkIn, tempDataDir, tokenIn } from '../support/outbox';
import { patreonMember } from '../support/platform-stubs';

const PATREON_SECRET = 'patreon-webhook-secret';
const BMC_SECRET = 'bmc-webhook-secret';
const day = 24 * 3600 * 1000;

const patreonSig = (body: string, secret = PATREON_SECRET) => createHmac('md5', secret).update(body).digest('hex');
const bmcSig = (body: string, secret = BMC_SECRET) => createHmac('sha256', secret).update(body).digest('hex');

describe('platform webhooks', async () => {
  const app = await createTestApp({ PATREON_WEBHOOK_SECRET: PATREON_SECRET, BMC_WEBHOOK_SECRET: BMC_SECRET });
  const db = app.database.db;
  const userByEmail = async (email: string) => (await db.select().from(users).where(eq(users.email, email)))[0];
  const tag = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

  const postPatreon = (event: string, body: string, signature?: string | null) =>
    app.inject({
      method: 'POST',
      url: '/api/webhooks/patreon',
      headers: {
        'content-type': 'application/json',
        'x-patreon-event': event,
        ...(signature === null ? {} : { 'x-patreon-signature': signature ?? patreonSig(body) }),
      },
      payload: body,
    });
  const postBmc = (body: string, signature?: string | null) =>
    app.inject({
      method: 'POST',
      url: '/api/webhooks/buymeacoffee',
      headers: { 'content-type': 'application/json', ...(signature === null ? {} : { 'x-signature-sha256': signature ?? bmcSig(body) }) },
      payload: body,
    });
  const permissions = async (cookie: string) => (await app.inject({ url: '/api/user/permissions', headers: { cookie } })).json();

  it('applies a signed Patreon pledge at once: the member can use the tier on their next request', async () => {
    const email = `patron-${tag()}@example.test`;
    const m = await createMember(app, { email });
    expect((await permissions(m.cookie)).canAccessVIP).toBe(false);

    // Spacing and key order are kept: the signature is over the raw bytes.
    const body = JSON.stringify({ data: patreonMember({ email, status: 'active_patron', cents: 1000 }), included: [] }, null, 1);
    const res = await postPatreon('members:pledge:create', body);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ received: true, applied: true, duplicate: false, stale: false, updated: 1 });
    expect(await userByEmail(email)).toMatchObject({
      subscriptionTier: 'vip',
      subscriptionStatus: 'active',
      subscriptionSource: 'patreon',
      pledgeAmountCents: 1000,
    });
    expect((await permissions(m.cookie)).canAccessVIP).toBe(true);

    // members:delete ends access, whatever status the document still carries.
    const del = JSON.stringify({ data: patreonMember({ email, status: 'active_patron', cents: 1000 }) });
    expect((await postPatreon('members:delete', del)).json()).toMatchObject({ applied: true, updated: 1 });
    expect(await userByEmail(email)).toMatchObject({ subscriptionStatus: 'cancelled' });
    expect((await permissions(m.cookie)).canAccessVIP).toBe(false);

    // Replaying the old create delivery is acknowledged and ignored.
    const replay = await postPatreon('members:pledge:create', body);
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual({ received: true, applied: false, duplicate: true, stale: false, updated: 0 });
    expect(await userByEmail(email)).toMatchObject({ subscriptionStatus: 'cancelled' });
  });

  it('refuses a missing or wrong Patreon signature with 401 and changes nothing', async () => {
    const email = `forger-${tag()}@example.test`;
    await createMember(app, { email });
    const body = JSON.stringify({ data: patreonMember({ email, status: 'active_patron', cents: 1000 }) });
    const missing = await postPatreon('members:create', body, null);
    expect(missing.statusCode).toBe(401);
    expect(missing.json().error.code).toBe('invalid_signature');
    const wrongSecret = await postPatreon('members:create', body, patreonSig(body, 'guess'));
    expect(wrongSecret.statusCode).toBe(401);
    const tampered = await postPatreon('members:create', body.replace('1000', '2000'), patreonSig(body));
    expect(tampered.statusCode).toBe(401);
    const sha256Instead = await postPatreon('members:create', body, bmcSig(body, PATREON_SECRET));
    expect(sha256Instead.statusCode).toBe(401);
    expect(await userByEmail(email)).toMatchObject({ subscriptionTier: 'free', subscriptionStatus: 'inactive' });
    expect(await db.select().from(platformSubscriptions).where(eq(platformSubscriptions.email, email))).toHaveLength(0);
    expect(await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.email, email))).toHaveLength(0);
  });

  it('answers 400 for an unknown Patreon event or a body that is not JSON', async () => {
    const body = JSON.stringify({ data: patreonMember({ email: 'x@example.test', status: 'active_patron', cents: 300 }) });
    expect((await postPatreon('posts:publish', body)).statusCode).toBe(400);
    expect((await postPatreon('members:create', 'not json')).statusCode).toBe(400);
  });

  it('keeps a declined patron in grace, and stores payers who have no account yet', async () => {
    const email = `declined-${tag()}@example.test`;
    await createMember(app, { email });
    const last = new Date(Date.now() - 2 * day).toISOString();
    const body = JSON.stringify({ data: patreonMember({ email, status: 'declined_patron', cents: 500, lastChargeDate: last }) });
    await postPatreon('members:pledge:update', body);
    const u = await userByEmail(email);
    expect(u).toMatchObject({ subscriptionTier: 'dhr2', subscriptionStatus: 'active' });
    expect(u?.subscriptionExpiry?.getTime()).toBe(new Date(last).getTime() + 7 * day);

    const stranger = `stranger-${tag()}@example.test`;
    const res = await postPatreon('members:create', JSON.stringify({ data: patreonMember({ email: stranger, status: 'active_patron', cents: 300 }) }));
    expect(res.json()).toMatchObject({ applied: true, updated: 0 });
    expect(await app.modules.platformSubscribers.find(stranger)).toMatchObject({ tier: 'dhr1', status: 'active', source: 'patreon' });
  });

  it('applies Buy Me a Coffee membership events: started, then cancelled keeps access until the period ends', async () => {
    const email = `coffee-${tag()}@example.test`;
    const m = await createMember(app, { email });
    const periodEnd = Math.floor((Date.now() + 10 * day) / 1000);
    const started = JSON.stringify({
      type: 'membership.started',
      live_mode: true,
      attempt: 1,
      created: Math.floor(Date.now() / 1000),
      event_id: `evt-${tag()}`,
      data: {
        id: 77,
        supporter_email: email,
        supporter_name: 'Bea',
        amount: 5,
        currency: 'EUR',
        status: 'active',
        current_period_end: periodEnd,
        cancel_at_period_end: 'false',
      },
    });
    const res = await postBmc(started);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ applied: true, updated: 1 });
    expect(await userByEmail(email)).toMatchObject({
      subscriptionTier: 'dhr2',
      subscriptionStatus: 'active',
      subscriptionSource: 'buymeacoffee',
      pledgeAmountCents: 500,
    });
    expect((await permissions(m.cookie)).canAccessDHR2).toBe(true);

    // The same event id again (BMC retries) is applied once.
    const again = await postBmc(started);
    expect(again.json()).toMatchObject({ duplicate: true, applied: false });

    const cancelled = JSON.stringify({
      type: 'membership.cancelled',
      event_id: `evt-${tag()}`,
      data: { id: 77, supporter_email: email, amount: 5, status: 'canceled', current_period_end: periodEnd, canceled: 'true' },
    });
    expect((await postBmc(cancelled)).json()).toMatchObject({ applied: true, updated: 1 });
    const u = await userByEmail(email);
    expect(u).toMatchObject({ subscriptionStatus: 'cancelled_with_access', subscriptionTier: 'dhr2' });
    expect(u?.subscriptionExpiry?.getTime()).toBe(periodEnd * 1000);
    expect((await permissions(m.cookie)).canAccessDHR2).toBe(true);
  });

  it('refuses a missing or wrong BMC signature with 401 and acknowledges events it does not act on', async () => {
    const email = `coffee-forger-${tag()}@example.test`;
    await createMember(app, { email });
    const body = JSON.stringify({ type: 'membership.started', event_id: `evt-${tag()}`, data: { supporter_email: email, amount: 10, status: 'active' } });
    expect((await postBmc(body, null)).statusCode).toBe(401);
    expect((await postBmc(body, bmcSig(body, 'nope'))).statusCode).toBe(401);
    expect((await postBmc(body, 'zz')).statusCode).toBe(401);
    expect(await userByEmail(email)).toMatchObject({ subscriptionTier: 'free' });

    const coffee = JSON.stringify({ type: 'donation.created', event_id: `evt-${tag()}`, data: { supporter_email: email, amount: 3 } });
    const res = await postBmc(coffee);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ applied: false, duplicate: false });
  });

  it('forgets replay records only after their retention', async () => {
    const old = new Date(Date.now() - 181 * day);
    await db.insert(webhookDeliveries).values([
      { platform: 'patreon', deliveryKey: `old-${tag()}`, event: 'members:update', receivedAt: old },
      { platform: 'patreon', deliveryKey: `recent-${tag()}`, event: 'members:update', receivedAt: new Date(Date.now() - 179 * day) },
    ]);
    const before = (await db.select().from(webhookDeliveries)).length;
    await pruneOldRecords(db);
    const after = await db.select().from(webhookDeliveries);
    expect(after.length).toBe(before - 1);
    expect(after.some((d) => d.deliveryKey.startsWith('old-'))).toBe(false);
  });

  it('counts deliveries by platform and status in /metrics', async () => {
    const text = (await readMetrics(app)).body;
    expect(text).toMatch(/dhr_platform_webhooks_total\{platform="patreon",status="200"\} [1-9]/);
    expect(text).toMatch(/dhr_platform_webhooks_total\{platform="patreon",status="401"\} [1-9]/);
    expect(text).toMatch(/dhr_platform_webhooks_total\{platform="buymeacoffee",status="200"\} [1-9]/);
  });

  it('leaves other routes on the normal JSON parser', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/admin/sync-subscriptions', payload: { a: 1 } });
    expect(res.statusCode).toBe(401);
  });
});

describe('sign-in check: a payer without an account', async () => {
  const dataDir = tempDataDir('dhr-platform-signin-');
  const app = await createTestApp({ DATA_DIR: dataDir, PATREON_WEBHOOK_SECRET: PATREON_SECRET });

  it('gets an account with the paid tier on first sign-in by link; a former patron gets none', async () => {
    const email = `first-visit-${Date.now().toString(36)}@example.test`;
    const body = JSON.stringify({ data: patreonMember({ email, status: 'active_patron', cents: 1000, fullName: 'Fiona Payer' }) });
    const hook = await app.inject({
      method: 'POST',
      url: '/api/webhooks/patreon',
      headers: { 'content-type': 'application/json', 'x-patreon-event': 'members:create', 'x-patreon-signature': patreonSig(body) },
      payload: body,
    });
    expect(hook.json()).toMatchObject({ applied: true, updated: 0 });

    expect((await app.inject({ method: 'POST', url: '/api/auth/simple-login', payload: { email } })).statusCode).toBe(200);
    await app.mailer.idle();
    const token = tokenIn(linkIn(lastMailTo(dataDir, email), '/simple-auth/link'));
    const signIn = await app.inject({ method: 'POST', url: '/api/auth/magic', payload: { token } });
    expect(signIn.statusCode).toBe(200);
    const cookie = String(signIn.headers['set-cookie']).split(';')[0] ?? '';
    const perms = (await app.inject({ url: '/api/user/permissions', headers: { cookie } })).json();
    expect(perms).toMatchObject({ authenticated: true, canAccessVIP: true, subscriptionTier: 'vip', email, firstName: 'Fiona' });
    const [u] = await app.database.db.select().from(users).where(eq(users.email, email));
    expect(u).toMatchObject({ subscriptionSource: 'patreon', pledgeAmountCents: 1000, lastName: 'Payer' });

    const former = `former-${Date.now().toString(36)}@example.test`;
    const fb = JSON.stringify({ data: patreonMember({ email: former, status: 'former_patron', cents: 0 }) });
    await app.inject({
      method: 'POST',
      url: '/api/webhooks/patreon',
      headers: { 'content-type': 'application/json', 'x-patreon-event': 'members:update', 'x-patreon-signature': patreonSig(fb) },
      payload: fb,
    });
    await app.inject({ method: 'POST', url: '/api/auth/simple-login', payload: { email: former } });
    await app.mailer.idle();
    expect(() => lastMailTo(dataDir, former)).toThrow();
  });
});

describe('platform webhooks without secrets', async () => {
  const app = await createTestApp();
  it('refuses deliveries it cannot verify', async () => {
    const body = '{"data":{}}';
    const p = await app.inject({
      method: 'POST',
      url: '/api/webhooks/patreon',
      headers: { 'content-type': 'application/json', 'x-patreon-event': 'members:create', 'x-patreon-signature': 'ab' },
      payload: body,
    });
    expect(p.statusCode).toBe(401);
    expect(p.json().error.code).toBe('webhook_not_configured');
    const b = await app.inject({
      method: 'POST',
      url: '/api/webhooks/buymeacoffee',
      headers: { 'content-type': 'application/json', 'x-signature-sha256': 'ab' },
      payload: body,
    });
    expect(b.statusCode).toBe(401);
  });
});

import { eq } from 'drizzle-orm';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { platformSubscriptions, syncRuns, users } from '../../src/server/db/schema';
import { NO_PLATFORM_CONFIGURED, type BulkPlan } from '../../src/contracts/admin';
import { platformSubscriberFor } from '../../src/server/modules/platforms/platforms-repository';
import { fetchBmcSubscriptions, fetchPatreonMembers } from '../../src/server/modules/platforms/clients';
import { createSyncRunner } from '../../src/server/modules/platforms/sync';
import { createMember, createTestApp, expectServerErrors, memberWithRole, readMetrics } from '../support/app';
import { bmcSubscription, patreonMember, startBmcStub, startPatreonStub } from '../support/platform-stubs';

const PATREON_TOKEN = 'patreon-test-token';
const BMC_TOKEN = 'bmc-test-token';
const CAMPAIGN = '4242';
const day = 24 * 3600 * 1000;
const iso = (offsetDays: number) => new Date(Date.now() + offsetDays * day).toISOString();
const bmcDate = (offsetDays: number) => iso(offsetDays).replace('T', ' ').slice(0, 19);

describe('platform sync', async () => {
  const patreon = await startPatreonStub({ token: PATREON_TOKEN, campaignId: CAMPAIGN, pageSize: 2 });
  const bmc = await startBmcStub({ token: BMC_TOKEN, pageSize: 2 });
  afterAll(async () => {
    await patreon.close();
    await bmc.close();
  });
  const app = await createTestApp({
    PATREON_API_URL: patreon.url,
    PATREON_ACCESS_TOKEN: PATREON_TOKEN,
    PATREON_CAMPAIGN_ID: CAMPAIGN,
    BMC_API_URL: bmc.url,
    BMC_ACCESS_TOKEN: BMC_TOKEN,
  });
  const admin = await memberWithRole(app, 'admin');
  const db = app.database.db;

  const sync = (cookie = admin.cookie) =>
    app.inject({ method: 'POST', url: '/api/admin/sync-subscriptions', headers: { cookie, 'content-type': 'application/json' }, payload: '{}' });
  const userByEmail = async (email: string) => (await db.select().from(users).where(eq(users.email, email)))[0];

  beforeEach(() => {
    patreon.state.failures = [];
    patreon.state.delayMs = 0;
    bmc.state.failures = [];
    bmc.state.delayMs = 0;
  });

  it('is admin only', async () => {
    expect((await app.inject({ method: 'POST', url: '/api/admin/sync-subscriptions', payload: {} })).statusCode).toBe(401);
    const vip = await memberWithRole(app, 'vip');
    expect((await sync(vip.cookie)).statusCode).toBe(403);
  });

  it('follows every page of both platforms with the documented requests and sets tiers', async () => {
    const t = Date.now().toString(36);
    const emails = {
      vip: `p-vip-${t}@example.test`,
      dhr1: `p-dhr1-${t}@example.test`,
      grace: `p-grace-${t}@example.test`,
      former: `p-former-${t}@example.test`,
      bmcDhr2: `b-dhr2-${t}@example.test`,
      bmcEnding: `b-ending-${t}@example.test`,
      noAccount: `p-noaccount-${t}@example.test`,
    };
    for (const e of Object.values(emails)) if (e !== emails.noAccount) await createMember(app, { email: e });
    patreon.state.items = [
      patreonMember({ email: emails.vip.toUpperCase(), status: 'active_patron', cents: 1000 }),
      patreonMember({ email: emails.dhr1, status: 'active_patron', cents: 300 }),
      patreonMember({ email: emails.grace, status: 'declined_patron', cents: 500, lastChargeDate: iso(-2) }),
      patreonMember({ email: emails.former, status: 'former_patron', cents: 0, lastChargeDate: iso(-60) }),
      patreonMember({ email: emails.noAccount, status: 'active_patron', cents: 500, fullName: 'Nora Account Less' }),
    ];
    bmc.state.items = [
      bmcSubscription({ email: emails.bmcDhr2, price: '5.000', num: 1 }),
      bmcSubscription({ email: emails.bmcEnding, price: '5.000', num: 2, cancelledAtPeriodEnd: true, periodEnd: bmcDate(5) }),
      bmcSubscription({ email: `b-other-${t}@example.test`, price: '3.000' }),
    ];
    patreon.requests.length = 0;
    bmc.requests.length = 0;

    const res = await sync();
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.errors).toEqual([]);
    expect(body.platforms).toEqual([
      { platform: 'patreon', attempted: true, ok: true, fetched: 5, error: null, active: 4 },
      { platform: 'buymeacoffee', attempted: true, ok: true, fetched: 3, error: null, active: 3 },
    ]);
    // vip, dhr1, grace, bmcDhr2, bmcEnding change; former is cancelled (was inactive: a change too).
    expect(body.updated).toBe(6);

    // Patreon: 3 pages via page[cursor], with the documented include/fields and the bearer token.
    expect(patreon.requests).toHaveLength(3);
    for (const r of patreon.requests) {
      expect(r.path).toBe(`/api/oauth2/v2/campaigns/${CAMPAIGN}/members`);
      expect(r.authorization).toBe(`Bearer ${PATREON_TOKEN}`);
      expect(r.query.get('include')).toBe('currently_entitled_tiers,user');
      expect(r.query.get('fields[member]')).toBe(
        'email,full_name,patron_status,currently_entitled_amount_cents,next_charge_date,last_charge_date,last_charge_status',
      );
    }
    expect(patreon.requests.map((r) => r.query.get('page[cursor]'))).toEqual([null, '2', '4']);
    // BMC: status=all, page=1..2 until next_page_url is null.
    expect(bmc.requests.map((r) => `${r.query.get('status')}:${r.query.get('page')}`)).toEqual(['all:1', 'all:2']);
    expect(bmc.requests.every((r) => r.authorization === `Bearer ${BMC_TOKEN}`)).toBe(true);

    expect(await userByEmail(emails.vip)).toMatchObject({
      subscriptionTier: 'vip',
      subscriptionStatus: 'active',
      subscriptionSource: 'patreon',
      pledgeAmountCents: 1000,
      subscriptionExpiry: null,
    });
    expect(await userByEmail(emails.dhr1)).toMatchObject({ subscriptionTier: 'dhr1', subscriptionStatus: 'active' });
    const grace = await userByEmail(emails.grace);
    expect(grace).toMatchObject({ subscriptionTier: 'dhr2', subscriptionStatus: 'active' });
    expect(grace?.subscriptionExpiry?.getTime()).toBeCloseTo(Date.now() + 5 * day, -4);
    expect(await userByEmail(emails.former)).toMatchObject({ subscriptionTier: 'free', subscriptionStatus: 'cancelled' });
    expect(await userByEmail(emails.bmcDhr2)).toMatchObject({
      subscriptionTier: 'dhr2',
      subscriptionStatus: 'active',
      subscriptionSource: 'buymeacoffee',
      pledgeAmountCents: 500,
    });
    expect(await userByEmail(emails.bmcEnding)).toMatchObject({
      subscriptionTier: 'vip',
      subscriptionStatus: 'cancelled_with_access',
      pledgeAmountCents: 1000,
    });

    // A payer without an account keeps their platform record; sign-in by link reads it.
    expect(await userByEmail(emails.noAccount)).toBeUndefined();
    expect(await platformSubscriberFor(db, emails.noAccount)).toMatchObject({ tier: 'dhr2', status: 'active', source: 'patreon', pledgeAmountCents: 500 });
    expect(await app.modules.platformSubscribers.find(emails.noAccount)).toMatchObject({ tier: 'dhr2', firstName: 'Nora', lastName: 'Account Less' });

    // Running it again changes nothing.
    const again = await sync();
    expect(again.json().updated).toBe(0);

    // A patron who leaves loses access on the next sync; one who vanishes from a full listing too.
    patreon.state.items = patreon.state.items.map((m) =>
      m.attributes.email === emails.dhr1 ? patreonMember({ email: emails.dhr1, status: 'former_patron', cents: 0 }) : m,
    );
    bmc.state.items = bmc.state.items.filter((s) => s.payer_email !== emails.bmcDhr2);
    const third = await sync();
    expect(third.json().updated).toBe(2);
    expect(await userByEmail(emails.dhr1)).toMatchObject({ subscriptionTier: 'free', subscriptionStatus: 'cancelled' });
    expect(await userByEmail(emails.bmcDhr2)).toMatchObject({ subscriptionStatus: 'cancelled' });
    const gone = await db.select().from(platformSubscriptions).where(eq(platformSubscriptions.email, emails.bmcDhr2));
    expect(gone).toHaveLength(0);
    expect((await sync()).json().updated).toBe(0);
  });

  it('keeps an admin-sourced paid assignment whatever the platforms say', async () => {
    const email = `granted-${Date.now().toString(36)}@example.test`;
    await createMember(app, { email, subscriptionTier: 'vip', subscriptionStatus: 'active', subscriptionSource: 'admin' });
    patreon.state.items.push(patreonMember({ email, status: 'former_patron', cents: 0 }));
    await sync();
    expect(await userByEmail(email)).toMatchObject({ subscriptionTier: 'vip', subscriptionStatus: 'active', subscriptionSource: 'admin' });
  });

  it('moves passed expiries to expired and counts them', async () => {
    const m = await createMember(app, {
      subscriptionTier: 'dhr2',
      subscriptionStatus: 'active',
      subscriptionSource: 'admin',
      subscriptionExpiry: new Date(Date.now() - 1000),
    });
    const res = await sync();
    expect(res.json().updated).toBe(1);
    expect(await userByEmail(m.user.email)).toMatchObject({ subscriptionStatus: 'expired', subscriptionTier: 'dhr2' });
  });

  it('answers 502 naming the platform when a token is refused, and changes nothing', async () => {
    expectServerErrors(app, /answered 502/);
    const email = `kept-${Date.now().toString(36)}@example.test`;
    await createMember(app, { email });
    patreon.state.items.push(patreonMember({ email, status: 'active_patron', cents: 1000 }));
    patreon.state.token = 'rotated';
    bmc.state.token = 'rotated';
    const res = await sync();
    expect(res.statusCode).toBe(502);
    expect(res.json().message).toContain('Patreon: 401');
    expect(res.json().message).toContain('PATREON_ACCESS_TOKEN');
    expect(res.json().message).toContain('Buy Me a Coffee: 401');
    expect(await userByEmail(email)).toMatchObject({ subscriptionTier: 'free', subscriptionStatus: 'inactive' });

    // One platform failing does not stop the other; the failure is listed.
    bmc.state.token = BMC_TOKEN;
    const partial = await sync();
    expect(partial.statusCode).toBe(200);
    expect(partial.json().errors).toEqual([expect.stringContaining('Patreon: 401')]);
    expect(await userByEmail(email)).toMatchObject({ subscriptionTier: 'free' });
    patreon.state.token = PATREON_TOKEN;

    const status = await app.inject({ url: '/api/admin/system-status', headers: { cookie: admin.cookie } });
    const platforms = status.json().platforms as { platform: string; configured: boolean; lastSync: { ok: boolean; error: string | null } | null }[];
    expect(platforms.find((p) => p.platform === 'patreon')).toMatchObject({ configured: true, lastSync: { ok: false, error: expect.stringContaining('401') } });
    expect(platforms.find((p) => p.platform === 'buymeacoffee')).toMatchObject({ configured: true, lastSync: { ok: true, error: null } });
    expect(status.json().lastSync).toMatchObject({ trigger: 'manual', ok: false });

    await sync();
    expect(await userByEmail(email)).toMatchObject({ subscriptionTier: 'vip', subscriptionStatus: 'active' });

    const metrics = (await readMetrics(app)).body;
    expect(metrics).toMatch(/dhr_platform_sync_runs_total\{trigger="manual",result="failed"\} [1-9]/);
    expect(metrics).toMatch(/dhr_platform_sync_runs_total\{trigger="manual",result="partial"\} [1-9]/);
    expect(metrics).toMatch(/dhr_platform_sync_last_success_timestamp_seconds\{platform="buymeacoffee"\} \d{10}/);
  });

  it('retries a 500 and then succeeds', async () => {
    patreon.state.failures = [{ status: 500, body: { errors: [{ status: '500' }] } }];
    bmc.state.failures = [{ status: 503 }];
    patreon.requests.length = 0;
    const res = await sync();
    expect(res.statusCode).toBe(200);
    expect(res.json().errors).toEqual([]);
    // The first page was asked twice.
    expect(patreon.requests[0]?.query.get('page[cursor]')).toBeNull();
    expect(patreon.requests[1]?.query.get('page[cursor]')).toBeNull();
  });

  it('honours Retry-After on 429', async () => {
    bmc.state.failures = [{ status: 429, headers: { 'retry-after': '1' } }];
    const started = Date.now();
    const list = await fetchBmcSubscriptions({ apiUrl: bmc.url, accessToken: BMC_TOKEN }, { baseDelayMs: 1 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(list.length).toBe(bmc.state.items.length);

    // A wait longer than the client accepts ends the call at once, saying so.
    bmc.state.failures = [{ status: 429, headers: { 'retry-after': '3600' } }];
    const quick = Date.now();
    await expect(fetchBmcSubscriptions({ apiUrl: bmc.url, accessToken: BMC_TOKEN }, { baseDelayMs: 1 })).rejects.toThrow(
      'Buy Me a Coffee: 429 Too Many Requests (asked to retry after 3600 s)',
    );
    expect(Date.now() - quick).toBeLessThan(2_000);
  });

  it('gives up on a slow platform with a clear timeout error', async () => {
    patreon.state.delayMs = 1_000;
    await expect(
      fetchPatreonMembers({ apiUrl: patreon.url, accessToken: PATREON_TOKEN, campaignId: CAMPAIGN }, { timeoutMs: 150, retries: 1, baseDelayMs: 10 }),
    ).rejects.toThrow('Patreon: no reply within 150 ms');

    // Through the sync: the slow platform's failure is recorded; the other still syncs.
    const runner = createSyncRunner({ database: app.database, config: app.config }, { timeoutMs: 150, retries: 0 });
    const result = await runner.sync('scheduled');
    expect(result.platforms.find((p) => p.platform === 'patreon')).toMatchObject({ ok: false, error: 'Patreon: no reply within 150 ms' });
    expect(result.platforms.find((p) => p.platform === 'buymeacoffee')).toMatchObject({ ok: true });
    const [last] = await db
      .select()
      .from(syncRuns)
      .orderBy(syncRuns.id)
      .limit(1)
      .offset((await db.select().from(syncRuns)).length - 1);
    expect(last).toMatchObject({ trigger: 'scheduled', ok: false });
  });

  it('never runs two syncs at once in one process', async () => {
    patreon.state.delayMs = 100;
    const runner = createSyncRunner({ database: app.database, config: app.config });
    const a = runner.sync('manual');
    const b = runner.sync('manual');
    expect(b).toBe(a);
    await a;
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)('on PostgreSQL, a second instance does not sync while one is running', async () => {
    patreon.state.delayMs = 400;
    // Two runners stand for two app instances: they share only the database.
    const one = createSyncRunner({ database: app.database, config: app.config });
    const two = createSyncRunner({ database: app.database, config: app.config });
    const first = one.sync('manual');
    await new Promise((r) => setTimeout(r, 150));
    await expect(two.sync('manual')).rejects.toThrow('A sync is already running');
    expect(await two.sync('scheduled')).toMatchObject({ skipped: true, updated: 0 });
    expect((await first).skipped).toBe(false);
  });

  it('names the platform when it cannot be reached', async () => {
    const gone = await startBmcStub({ token: BMC_TOKEN });
    await gone.close();
    await expect(fetchBmcSubscriptions({ apiUrl: gone.url, accessToken: BMC_TOKEN }, { retries: 1, baseDelayMs: 1 })).rejects.toThrow(
      /^Buy Me a Coffee: unreachable \(ECONNREFUSED\)$/,
    );
  });

  it('fails a 4xx other than 429 at once, without retrying', async () => {
    patreon.state.failures = [{ status: 404 }];
    patreon.requests.length = 0;
    await expect(fetchPatreonMembers({ apiUrl: patreon.url, accessToken: PATREON_TOKEN, campaignId: CAMPAIGN }, { baseDelayMs: 1 })).rejects.toThrow(
      'Patreon: 404',
    );
    expect(patreon.requests).toHaveLength(1);
  });
});

describe('platform sync without platforms configured', async () => {
  const app = await createTestApp();
  const admin = await memberWithRole(app, 'admin');

  it('says plainly that no platform is configured, records no run and changes nothing', async () => {
    const before = await app.inject({ url: '/api/admin/sync-runs', headers: { cookie: admin.cookie } });
    const res = await app.inject({ method: 'POST', url: '/api/admin/sync-subscriptions', headers: { cookie: admin.cookie }, payload: {} });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toEqual({ code: 'no_platform_configured', message: NO_PLATFORM_CONFIGURED });
    expect(NO_PLATFORM_CONFIGURED).toBe('No payment platform is configured: set PATREON_ACCESS_TOKEN/PATREON_CAMPAIGN_ID or BMC_ACCESS_TOKEN');
    const after = await app.inject({ url: '/api/admin/sync-runs', headers: { cookie: admin.cookie } });
    expect(after.json()).toEqual(before.json());
    const status = await app.inject({ url: '/api/admin/system-status', headers: { cookie: admin.cookie } });
    expect(status.json().platforms.map((p: { configured: boolean }) => p.configured)).toEqual([false, false]);
  });
});

describe('scheduled platform sync', async () => {
  const patreon = await startPatreonStub({ token: PATREON_TOKEN, campaignId: CAMPAIGN });
  afterAll(() => patreon.close());
  const email = `scheduled-${Date.now().toString(36)}@example.test`;
  patreon.state.items = [patreonMember({ email, status: 'active_patron', cents: 500 })];
  const app = await createTestApp(
    {
      PATREON_API_URL: patreon.url,
      PATREON_ACCESS_TOKEN: PATREON_TOKEN,
      PATREON_CAMPAIGN_ID: CAMPAIGN,
      // 1.2 s; other background jobs point at nothing that answers.
      SYNC_INTERVAL_MIN: '0.02',
      DHR1_STREAM_URL: 'http://127.0.0.1:9/dhr1',
      DHR2_STREAM_URL: 'http://127.0.0.1:9/dhr2',
    },
    { backgroundJobs: true },
  );

  it('syncs every SYNC_INTERVAL_MIN while the app runs, and stops on close', async () => {
    const member = await createMember(app, { email });
    const after = Date.now();
    // Wait for a scheduled run that started after the member existed and has finished applying (its row
    // is written as 'applying' first; the background lane rests between its chunks).
    const until = Date.now() + 20_000;
    let run: typeof syncRuns.$inferSelect | undefined;
    while (Date.now() < until && !run) {
      run = (await app.database.db.select().from(syncRuns)).find((r) => r.trigger === 'scheduled' && r.startedAt.getTime() >= after && r.state !== 'applying');
      if (!run) await new Promise((r) => setTimeout(r, 200));
    }
    expect(run).toMatchObject({ ok: true });
    const [u] = await app.database.db.select().from(users).where(eq(users.id, member.user.id));
    expect(u).toMatchObject({ subscriptionTier: 'dhr2', subscriptionSource: 'patreon' });

    await app.close();
    const asked = patreon.requests.length;
    await new Promise((r) => setTimeout(r, 2_500));
    expect(patreon.requests.length).toBe(asked);
  });
});

describe('a sync you can trust: complete listings, the plan you confirmed, paid time kept', async () => {
  const patreon = await startPatreonStub({ token: PATREON_TOKEN, campaignId: CAMPAIGN, pageSize: 3 });
  const bmc = await startBmcStub({ token: BMC_TOKEN, pageSize: 4 });
  afterAll(async () => {
    await patreon.close();
    await bmc.close();
  });
  const app = await createTestApp({
    PATREON_API_URL: patreon.url,
    PATREON_ACCESS_TOKEN: PATREON_TOKEN,
    PATREON_CAMPAIGN_ID: CAMPAIGN,
    BMC_API_URL: bmc.url,
    BMC_ACCESS_TOKEN: BMC_TOKEN,
  });
  const admin = await memberWithRole(app, 'admin');
  const db = app.database.db;
  const t = Date.now().toString(36);
  const bEmail = (i: number) => `b${i}-${t}@example.test`;
  const pEmail = (i: number) => `p${i}-${t}@example.test`;
  const post = (payload: object) =>
    app.inject({ method: 'POST', url: '/api/admin/sync-subscriptions', headers: { cookie: admin.cookie }, payload: payload as Record<string, unknown> });
  const preview = async () => {
    const res = await post({ dryRun: true });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as {
      plan: { planId: string; counts: BulkPlan['counts']; samples: { email: string; kind: string }[] };
      platforms: { ok: boolean; error: string | null; held?: string | null }[];
      errors: string[];
    };
  };
  const snapshot = async () =>
    (await db.select().from(users))
      .filter((u) => u.email.endsWith(`-${t}@example.test`))
      .map((u) => `${u.email} ${u.subscriptionTier} ${u.subscriptionStatus} ${u.subscriptionExpiry?.toISOString() ?? '-'}`)
      .sort();
  const userByEmail = async (email: string) => (await db.select().from(users).where(eq(users.email, email)))[0];
  const listAll = () => {
    bmc.state.items = Array.from({ length: 10 }, (_, i) => bmcSubscription({ email: bEmail(i), price: '10.000' }));
  };

  for (let i = 0; i < 10; i++) await createMember(app, { email: bEmail(i) });
  for (let i = 0; i < 3; i++) await createMember(app, { email: pEmail(i) });
  patreon.state.items = [0, 1, 2].map((i) => patreonMember({ email: pEmail(i), status: 'active_patron', cents: 1000 }));
  listAll();

  it('asks the platforms outside any transaction: /api/health answers while a slow platform keeps the sync waiting', async () => {
    patreon.state.delayMs = 2_500;
    let settled = false;
    const running = post({}).then((r) => {
      settled = true;
      return r;
    });
    // The health check trusts a database answer for 1 s: wait past it, so this one asks the database.
    await new Promise((r) => setTimeout(r, 1_200));
    expect(patreon.requests.length).toBeGreaterThan(0);
    const health = await app.inject({ url: '/api/health' });
    expect(health.statusCode).toBe(200);
    expect(settled).toBe(false);
    const res = await running;
    patreon.state.delayMs = 0;
    expect(res.statusCode, res.body).toBe(200);
    expect(await userByEmail(bEmail(0))).toMatchObject({ subscriptionTier: 'vip', subscriptionStatus: 'active' });
    expect(await userByEmail(pEmail(0))).toMatchObject({ subscriptionTier: 'vip', subscriptionStatus: 'active' });
  });

  it('previews the two losses apart, the most serious first, and names them in the sync log', async () => {
    patreon.state.items = patreon.state.items.map((m) =>
      m.attributes.email === pEmail(0) ? patreonMember({ email: pEmail(0), status: 'former_patron', cents: 0 }) : m,
    );
    const periodEnd = bmcDate(20);
    bmc.state.items = bmc.state.items.map((s) =>
      s.payer_email === bEmail(1) ? bmcSubscription({ email: bEmail(1), price: '10.000', cancelledAtPeriodEnd: true, periodEnd }) : s,
    );
    const { plan } = await preview();
    expect(plan.counts).toMatchObject({ loseAccess: 1, stopPaying: 1 });
    expect(plan.samples.slice(0, 2)).toMatchObject([
      { email: pEmail(0), kind: 'loseAccess' },
      { email: bEmail(1), kind: 'stopPaying' },
    ]);
    const res = await post({ planId: plan.planId });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ lostAccess: 1, stoppedPaying: 1 });
    const run = await app.inject({ url: `/api/admin/sync-runs/${res.json().runId}`, headers: { cookie: admin.cookie } });
    const notes = (run.json().entries as { email: string; note?: string }[]).filter((e) => e.note).map((e) => `${e.email} ${e.note}`);
    expect(notes.sort()).toEqual([`${bEmail(1)} stop paying, keep access until ${periodEnd.slice(0, 10)}`, `${pEmail(0)} lose access now`].sort());
    expect(run.json().note).toBe('1 lost access now · 1 stopped paying, access kept to their date');
  });

  it('keeps the later paid-through date of a member Patreon lists as a declined patron', async () => {
    const email = `declined-${t}@example.test`;
    const paidThrough = iso(40).slice(0, 10);
    const csv = `email,firstName,lastName,subscriptionTier,subscriptionStatus,subscriptionExpiry,pledgeAmount,source\n${email},De,Clined,VIP,active,${paidThrough},10,patreon`;
    const imported = await app.inject({ method: 'POST', url: '/api/admin/bulk-import', headers: { cookie: admin.cookie }, payload: { csvContent: csv } });
    expect(imported.statusCode, imported.body).toBe(200);
    await db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.email, email));
    const before = await userByEmail(email);
    // Last charge 3 days ago, declined: the grace (7 days) ends long before the date paid for.
    patreon.state.items.push(patreonMember({ email, status: 'declined_patron', cents: 1000, lastChargeDate: iso(-3) }));
    const { plan } = await preview();
    expect(plan.counts.loseAccess + plan.counts.stopPaying).toBe(0);
    expect((await post({ planId: plan.planId })).statusCode).toBe(200);
    const after = await userByEmail(email);
    expect(after).toMatchObject({ subscriptionTier: 'vip', subscriptionStatus: 'active', subscriptionSource: 'patreon' });
    expect(after?.subscriptionExpiry?.toISOString()).toBe(before?.subscriptionExpiry?.toISOString());
  });

  it('shows a platform answering 503 during the preview as failed; applying leaves its members untouched and covers the other platform', async () => {
    const retryAt = { 'retry-after': '0' };
    patreon.state.failures = Array.from({ length: 8 }, () => ({ status: 503, headers: retryAt }));
    // Patreon would end p1 if it answered; Buy Me a Coffee lowers b2.
    patreon.state.items = patreon.state.items.map((m) =>
      m.attributes.email === pEmail(1) ? patreonMember({ email: pEmail(1), status: 'former_patron', cents: 0 }) : m,
    );
    bmc.state.items = bmc.state.items.map((s) => (s.payer_email === bEmail(2) ? bmcSubscription({ email: bEmail(2), price: '3.000' }) : s));
    const shown = await preview();
    expect(shown.platforms[0]).toMatchObject({ platform: 'patreon', ok: false, error: expect.stringContaining('Patreon: 503 Service Unavailable') });
    expect(shown.errors).toEqual([expect.stringContaining('Patreon: 503')]);
    expect(shown.platforms[1]).toMatchObject({ platform: 'buymeacoffee', ok: true });
    expect(shown.plan.counts).toMatchObject({ loseAccess: 0, tierDown: 1 });
    const res = await post({ planId: shown.plan.planId });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().errors).toEqual([expect.stringContaining('Patreon: 503 Service Unavailable')]);
    expect(await userByEmail(pEmail(1))).toMatchObject({ subscriptionTier: 'vip', subscriptionStatus: 'active' });
    expect(await userByEmail(bEmail(2))).toMatchObject({ subscriptionTier: 'dhr1' });
    patreon.state.failures = [];
    patreon.state.items = patreon.state.items.map((m) =>
      m.attributes.email === pEmail(1) ? patreonMember({ email: pEmail(1), status: 'active_patron', cents: 1000 }) : m,
    );
  });

  it('treats Buy Me a Coffee answering "No subscriptions" after the preview as its failure: nothing of its members changes', async () => {
    const { plan } = await preview();
    const before = await snapshot();
    bmc.state.failures = [{ status: 200, body: { error_code: 404, reason: 'No subscriptions' } }];
    const res = await post({ planId: plan.planId });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().platforms[1]).toMatchObject({ platform: 'buymeacoffee', ok: false, error: 'Buy Me a Coffee: error 404 No subscriptions' });
    expect(await snapshot()).toEqual(before);
    // With any HTTP status, and with no preview at all: the same.
    bmc.state.failures = [{ status: 404, body: { error_code: 404, reason: 'No subscriptions' } }];
    expect((await post({})).json().platforms[1]).toMatchObject({ ok: false });
    expect(await snapshot()).toEqual(before);
  });

  it('counts a listing only when it proves it is complete: error bodies, truncated pages and other shapes fail the platform', async () => {
    const patreonClient = { apiUrl: patreon.url, accessToken: PATREON_TOKEN, campaignId: CAMPAIGN };
    const bmcClient = { apiUrl: bmc.url, accessToken: BMC_TOKEN };
    patreon.state.failures = [{ status: 200, body: { errors: [{ status: '500', detail: 'Internal error' }] } }];
    await expect(fetchPatreonMembers(patreonClient, { retries: 0 })).rejects.toThrow('Patreon: error in reply: Internal error');
    patreon.state.failures = [{ status: 200, body: { data: [], meta: { pagination: { cursors: { next: null }, total: 3 } } } }];
    await expect(fetchPatreonMembers(patreonClient, { retries: 0 })).rejects.toThrow('Patreon: incomplete listing: 0 members listed of the 3 announced');
    bmc.state.failures = [
      { status: 200, body: { current_page: 1, data: [bmcSubscription({ email: bEmail(0), price: '10.000' })], next_page_url: null, total: 7 } },
    ];
    await expect(fetchBmcSubscriptions(bmcClient, { retries: 0 })).rejects.toThrow(
      'Buy Me a Coffee: incomplete listing: 1 subscriptions listed of the 7 announced',
    );
    bmc.state.failures = [{ status: 200, body: { data: [] } }];
    await expect(fetchBmcSubscriptions(bmcClient, { retries: 0 })).rejects.toThrow('Buy Me a Coffee: incomplete listing: a page has no next_page_url');
    bmc.state.failures = [{ status: 200, body: 'Service temporarily unavailable' }];
    await expect(fetchBmcSubscriptions(bmcClient, { retries: 0 })).rejects.toThrow('Buy Me a Coffee: reply is not an object');
    bmc.state.failures = [];
    patreon.state.failures = [];
  });

  it('refuses a run whose plan takes more than the one previewed (409 plan_changed, in words) and changes nothing', async () => {
    listAll();
    const ok = await preview();
    expect((await post({ planId: ok.plan.planId })).statusCode).toBe(200);
    const { plan } = await preview();
    const before = await snapshot();
    // After the preview Buy Me a Coffee stops listing six supporters.
    bmc.state.items = bmc.state.items.filter((s) => ![3, 4, 5, 6, 7, 8].includes(Number(/^b(\d+)-/.exec(s.payer_email)?.[1])));
    const refused = await post({ confirm: true, planId: plan.planId });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('plan_changed');
    expect(refused.json().message).toBe(
      `The plan changed since the preview: 6 more members would lose access: ${bEmail(3)}, ${bEmail(4)}, ${bEmail(5)} and 3 more. Nothing was applied; review the new preview and confirm again.`,
    );
    expect(refused.json().difference).toMatchObject({ known: true, loseAccess: { count: 6 }, stopPaying: { count: 0 } });
    expect(refused.json().plan.counts.loseAccess).toBe(6);
    expect(await snapshot()).toEqual(before);
  });

  it('holds the losses of a listing that dropped more than 20 % of its supporters, even when confirmed', async () => {
    const before = await snapshot();
    const shown = await preview();
    expect(shown.platforms[1]?.held).toBe('Buy Me a Coffee lists 4 of the 10 supporters it listed earlier today: its cancellations are held for review');
    const res = await post({ confirm: true, planId: shown.plan.planId });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().held).toBe(6);
    expect(await snapshot()).toEqual(before);
    const held = await app.inject({ url: '/api/admin/held-changes', headers: { cookie: admin.cookie } });
    expect(held.json().members).toBe(6);
    // Once an admin confirms them, the listing takes nothing more and is the one later runs compare with.
    const confirmed = await app.inject({ method: 'POST', url: '/api/admin/held-changes/confirm', headers: { cookie: admin.cookie }, payload: {} });
    expect(confirmed.json()).toMatchObject({ done: 6 });
    expect(await userByEmail(bEmail(3))).toMatchObject({ subscriptionStatus: 'cancelled' });
    const next = await post({});
    expect(next.json().platforms[1]).toMatchObject({ ok: true, active: 4 });
    expect(next.json().platforms[1].held).toBeUndefined();
    expect((await preview()).platforms[1]?.held).toBeUndefined();
  });
});

import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { AdminUser } from '../../src/contracts/admin';
import { effectiveTier, hasActiveSubscription, statusGivesAccess, tierForPledgeCents } from '../../src/contracts/tier-policy';
import { SUBSCRIPTION_STATUSES, TIERS } from '../../src/contracts/tiers';
import { DAY_MS } from '../../src/contracts/time';
import { mixDownloads, users, vipMixes } from '../../src/server/db/schema';
import { parseExpiryDate, startOfDayDublin } from '../../src/server/lib/dates';
import { createMember, createTestApp, memberWithRole } from '../support/app';

const ADMIN_GETS = ['/api/admin/users', '/api/admin/stats', '/api/admin/system-status', '/api/admin/download-stats', '/api/admin/storage-status'];

describe('admin users API and dashboard figures', async () => {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'dhr-admin-'));
  // Channels point at a closed port: the status check must say "unreachable" quickly, not hang.
  const app = await createTestApp({ DATA_DIR: dataDir, DHR1_STREAM_URL: 'http://127.0.0.1:9/dhr1', DHR2_STREAM_URL: 'http://127.0.0.1:9/dhr2' }, {});
  const admin = await memberWithRole(app, 'admin');
  const db = app.database.db;
  const asAdmin = { cookie: admin.cookie };
  const tag = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

  const create = (payload: Record<string, unknown>) => app.inject({ method: 'POST', url: '/api/admin/users', headers: asAdmin, payload });
  const list = async (qs: string) => {
    const res = await app.inject({ url: `/api/admin/users${qs}`, headers: asAdmin });
    expect(res.statusCode, res.body).toBe(200);
    return { rows: res.json() as AdminUser[], total: Number(res.headers['x-total-count']), all: Number(res.headers['x-unfiltered-count']) };
  };

  it('lets only admins in', async () => {
    const free = await memberWithRole(app, 'free');
    const vip = await memberWithRole(app, 'vip');
    for (const url of ADMIN_GETS) {
      expect((await app.inject({ url })).statusCode, url).toBe(401);
      expect((await app.inject({ url, headers: { cookie: free.cookie } })).statusCode, url).toBe(403);
      expect((await app.inject({ url, headers: { cookie: vip.cookie } })).statusCode, url).toBe(403);
      expect((await app.inject({ url, headers: asAdmin })).statusCode, url).toBe(200);
    }
    for (const [method, url] of [
      ['POST', '/api/admin/users'],
      ['PUT', `/api/admin/users/${vip.user.id}`],
      ['POST', '/api/admin/bulk-import'],
    ] as const) {
      expect((await app.inject({ method, url, payload: {} })).statusCode).toBe(401);
      expect((await app.inject({ method, url, payload: {}, headers: { cookie: vip.cookie } })).statusCode).toBe(403);
    }
  });

  it('creates a member by the spec rules: euros in, cents stored and returned, expiry days', async () => {
    const email = `New.Member-${tag()}@Example.test`;
    const res = await create({
      email: `  ${email} `,
      username: ' newbie ',
      subscriptionTier: 'dhr2',
      subscriptionStatus: 'active',
      subscriptionSource: 'admin',
      expiryDays: 30,
      pledgeAmount: 5.5,
      isAdmin: false,
    });
    expect(res.statusCode, res.body).toBe(201);
    const u = res.json() as AdminUser;
    expect(u).toMatchObject({ email: email.toLowerCase(), username: 'newbie', subscriptionTier: 'dhr2', pledgeAmount: 550, isAdmin: false, lastLoginAt: null });
    expect(new Date(u.subscriptionExpiry ?? 0).getTime()).toBeCloseTo(Date.now() + 30 * 24 * 3600 * 1000, -5);
    const [row] = await db.select().from(users).where(eq(users.id, u.id));
    expect(row?.pledgeAmountCents).toBe(550);

    // Form strings, empty amount and 0 days: no expiry, 0 cents.
    const plain = await create({ email: `plain-${tag()}@example.test`, username: 'plain', pledgeAmount: '', expiryDays: '0' });
    expect(plain.statusCode).toBe(201);
    expect(plain.json()).toMatchObject({ subscriptionExpiry: null, pledgeAmount: 0, subscriptionTier: 'free', subscriptionSource: 'admin' });
    const euros = await create({ email: `str-${tag()}@example.test`, username: 's', pledgeAmount: '10.00' });
    expect(euros.json().pledgeAmount).toBe(1000);

    const dup = await create({ email: email.toUpperCase(), username: 'again' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe('A user with this email already exists');
  });

  it('refuses bad input with the spec messages and creates nothing', async () => {
    const before = (await list('')).all;
    const cases: [Record<string, unknown>, number, string][] = [
      [{ email: '', username: 'x' }, 400, 'Email and username are required'],
      [{ email: 'a@b.test', username: '   ' }, 400, 'Email and username are required'],
      [{ username: 'x' }, 400, 'Email and username are required'],
      [{ email: 'not-an-email', username: 'x' }, 400, 'Please enter a valid email address'],
      [{ email: 'a@b', username: 'x' }, 400, 'Please enter a valid email address'],
      // Longer than any address can be (254): the same message, not a generic length error.
      [{ email: `${'a'.repeat(250)}@b.test`, username: 'x' }, 400, 'Please enter a valid email address'],
    ];
    for (const [payload, status, message] of cases) {
      const res = await create(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(res.json().message).toBe(message);
    }
    for (const payload of [
      { email: 'ok@b.test', username: 'x', subscriptionTier: 'gold' },
      { email: 'ok@b.test', username: 'x', subscriptionStatus: 'paused' },
      { email: 'ok@b.test', username: 'x', pledgeAmount: -1 },
      { email: 'ok@b.test', username: 'x', pledgeAmount: 'lots' },
      { email: 'ok@b.test', username: 'x', expiryDays: 1.5 },
      { email: 'ok@b.test', username: 'x'.repeat(101) },
    ]) {
      const res = await create(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect((await list('')).all).toBe(before);
  });

  it('lists newest first with search over email, username, first and last name, filters, paging and totals', async () => {
    const t = tag();
    await createMember(app, {
      email: `zebra-${t}@example.test`,
      username: `dj_${t}`,
      firstName: 'Aoife',
      lastName: 'Murphy',
      subscriptionTier: 'vip',
      subscriptionStatus: 'active',
    });
    await createMember(app, {
      email: `other-${t}@example.test`,
      username: `u${t}`,
      firstName: 'Ciara',
      lastName: `ZEBRAson${t}`,
      subscriptionTier: 'dhr1',
      subscriptionStatus: 'cancelled',
    });
    await createMember(app, {
      email: `third-${t}@example.test`,
      username: `x${t}`,
      firstName: `zebrA${t}`,
      subscriptionTier: 'dhr1',
      subscriptionStatus: 'active',
    });

    const all = await list('');
    expect(all.total).toBe(all.all);
    expect(all.rows.length).toBe(all.all);
    const created = all.rows.map((r) => r.createdAt);
    expect([...created].sort().reverse()).toEqual(created);
    expect(all.rows[0]).toEqual(expect.objectContaining({ id: expect.any(String), pledgeAmount: expect.any(Number), subscriptionSource: expect.any(String) }));
    expect(Object.keys(all.rows[0] ?? {})).not.toContain('passwordHash');

    expect((await list(`?search=ZEBRA`)).rows.filter((r) => r.email.endsWith(`${t}@example.test`))).toHaveLength(3);
    expect((await list(`?search=${encodeURIComponent(`dj_${t}`)}`)).rows.map((r) => r.email)).toEqual([`zebra-${t}@example.test`]);
    expect((await list(`?search=murphy`)).rows.some((r) => r.email === `zebra-${t}@example.test`)).toBe(true);
    expect(
      (await list(`?search=zebra&tier=dhr1`)).rows
        .filter((r) => r.email.endsWith(`${t}@example.test`))
        .map((r) => r.email)
        .sort(),
    ).toEqual([`other-${t}@example.test`, `third-${t}@example.test`]);
    const filtered = await list(`?search=zebra&tier=dhr1&status=active`);
    expect(filtered.rows.filter((r) => r.email.endsWith(`${t}@example.test`)).map((r) => r.email)).toEqual([`third-${t}@example.test`]);
    expect(filtered.total).toBe(filtered.rows.length);
    expect(filtered.all).toBe(all.all);

    // LIKE wildcards typed by the admin are literal.
    expect((await list(`?search=${encodeURIComponent('%')}`)).rows).toHaveLength(0);
    expect((await list(`?search=${encodeURIComponent('_')}`)).rows.every((r) => `${r.email}${r.username}${r.firstName}${r.lastName}`.includes('_'))).toBe(true);

    // Empty filters mean none.
    expect((await list('?search=&tier=&status=')).total).toBe(all.all);

    const page = await list('?limit=2&offset=1');
    expect(page.rows.map((r) => r.id)).toEqual(all.rows.slice(1, 3).map((r) => r.id));
    expect(page.total).toBe(all.all);

    for (const bad of ['?tier=gold', '?status=paused', '?limit=0', '?limit=100000', '?offset=-1']) {
      expect((await app.inject({ url: `/api/admin/users${bad}`, headers: asAdmin })).statusCode, bad).toBe(400);
    }
  });

  it('updates a whole edited user, with validation', async () => {
    const m = await createMember(app, { email: `edit-${tag()}@example.test`, firstName: 'Old' });
    const current = (await list(`?search=${encodeURIComponent(m.user.email)}`)).rows[0] as AdminUser;
    const put = (id: string, payload: Record<string, unknown>) => app.inject({ method: 'PUT', url: `/api/admin/users/${id}`, headers: asAdmin, payload });

    const res = await put(m.user.id, {
      ...current,
      firstName: 'New',
      lastName: 'Name',
      subscriptionTier: 'vip',
      subscriptionStatus: 'active',
      subscriptionExpiry: '2099-06-30',
      pledgeAmount: 1000,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      firstName: 'New',
      lastName: 'Name',
      subscriptionTier: 'vip',
      subscriptionExpiry: '2099-06-30T22:59:59.999Z',
      pledgeAmount: 1000,
      createdAt: current.createdAt,
    });
    const cleared = await put(m.user.id, { ...current, subscriptionExpiry: '' });
    expect(cleared.json().subscriptionExpiry).toBeNull();

    expect((await put(m.user.id, { ...current, email: '' })).json().message).toBe('Email and username are required');
    expect((await put(m.user.id, { ...current, email: 'nope' })).json().message).toBe('Please enter a valid email address');
    const other = await createMember(app);
    const taken = await put(m.user.id, { ...current, email: other.user.email });
    expect(taken.statusCode).toBe(409);
    expect((await put(m.user.id, { ...current, subscriptionExpiry: '2026-02-30' })).statusCode).toBe(400);
    expect((await put(m.user.id, { ...current, pledgeAmount: 1.5 })).statusCode).toBe(400);
    expect((await put(m.user.id, { ...current, subscriptionTier: 'gold' })).statusCode).toBe(400);
    expect((await put('00000000-0000-4000-8000-000000000000', current)).statusCode).toBe(404);
    expect((await put('not-a-uuid', current)).statusCode).toBe(404);

    // An admin cannot lock themselves out.
    const self = (await list(`?search=${encodeURIComponent(admin.user.email)}`)).rows[0] as AdminUser;
    const demote = await put(admin.user.id, { ...self, isAdmin: false });
    expect(demote.statusCode).toBe(400);
    expect((await db.select().from(users).where(eq(users.id, admin.user.id)))[0]?.isAdmin).toBe(true);
  });

  it("computes the stats, today's downloads and storage from the running system", async () => {
    const before = (await app.inject({ url: '/api/admin/stats', headers: asAdmin })).json();
    await createMember(app, { subscriptionTier: 'vip', subscriptionStatus: 'active', pledgeAmountCents: 1000 });
    await createMember(app, {
      subscriptionTier: 'dhr2',
      subscriptionStatus: 'cancelled_with_access',
      subscriptionExpiry: new Date(Date.now() + 86_400_000),
      pledgeAmountCents: 500,
    });
    await createMember(app, { subscriptionTier: 'dhr1', subscriptionStatus: 'expired', pledgeAmountCents: 300 });
    const buyer = await createMember(app, { subscriptionTier: 'vip', subscriptionStatus: 'active' });
    const [mix] = await db.select().from(vipMixes).limit(1);
    if (mix) {
      await db.insert(mixDownloads).values([
        { userId: buyer.user.id, mixId: mix.id },
        { userId: buyer.user.id, mixId: mix.id },
      ]);
      // Yesterday's download does not count today.
      await db.insert(mixDownloads).values({ userId: buyer.user.id, mixId: mix.id, createdAt: new Date(Date.now() - 2 * 86_400_000) });
    }
    await fs.mkdir(path.join(dataDir, 'media', 'mixes'), { recursive: true });
    await fs.writeFile(path.join(dataDir, 'media', 'mixes', 'a.mp3'), Buffer.alloc(1234));
    await fs.writeFile(path.join(dataDir, 'media', 'cover.jpg'), Buffer.alloc(66));

    const s = (await app.inject({ url: '/api/admin/stats', headers: asAdmin })).json();
    expect(s.totalUsers).toBe(before.totalUsers + 4);
    expect(s.vipUsers).toBe(before.vipUsers + 2);
    expect(s.dhr2Users).toBe(before.dhr2Users + 1);
    expect(s.dhr1Users).toBe(before.dhr1Users);
    expect(s.freeUsers).toBe(before.freeUsers + 1);
    expect(s.vipUsers + s.dhr2Users + s.dhr1Users + s.freeUsers).toBe(s.totalUsers);
    expect(s.activeSubscribers).toBe(before.activeSubscribers + 3);
    expect(s.cancelledWithAccess).toBe(before.cancelledWithAccess + 1);
    expect(s.expiredUsers).toBe(before.expiredUsers + 1);
    expect(s.statusCounts.expired).toBe(before.statusCounts.expired + 1);
    expect(s.pledgeBands.vip).toBe(before.pledgeBands.vip + 1);
    expect(s.pledgeBands.dhr2).toBe(before.pledgeBands.dhr2 + 1);
    // The expired DHR1 member's old pledge buys nothing now: pledge bands count members with access only.
    expect(s.pledgeBands.dhr1).toBe(before.pledgeBands.dhr1);
    expect(s.buckets).toEqual({
      active: before.buckets.active + 2,
      cancelledWithAccess: before.buckets.cancelledWithAccess + 1,
      expired: before.buckets.expired + 1,
      free: before.buckets.free,
    });
    const mixCount = (await db.select().from(vipMixes)).length;
    expect(s.totalMixes).toBe(mixCount);
    expect(s.todayDownloads).toBe(mix ? before.todayDownloads + 2 : before.todayDownloads);

    const d = (await app.inject({ url: '/api/admin/download-stats', headers: asAdmin })).json();
    expect(d).toEqual({ today: s.todayDownloads });

    // Storage figures are cached briefly; a fresh app would see new files at once, so only check shape and the mixes here.
    const st = (await app.inject({ url: '/api/admin/storage-status', headers: asAdmin })).json();
    expect(st).toMatchObject({ mode: 'local', localPath: path.join(dataDir, 'media') });
    expect(st.mixes.total).toBe(mixCount);
    expect(st.mixes.withS3Url + st.mixes.withoutS3Url).toBe(mixCount);
  });

  it('counts a member whose access ran out as Expired only, never also Active', async () => {
    const before = (await app.inject({ url: '/api/admin/stats', headers: asAdmin })).json();
    const yesterday = new Date(Date.now() - DAY_MS);
    // Both still carry a status that gives access: the expiry pass has not run yet.
    await createMember(app, { subscriptionTier: 'dhr1', subscriptionStatus: 'active', subscriptionExpiry: yesterday });
    await createMember(app, { subscriptionTier: 'vip', subscriptionStatus: 'cancelled_with_access', subscriptionExpiry: yesterday });
    const s = (await app.inject({ url: '/api/admin/stats', headers: asAdmin })).json();
    expect(s.totalUsers).toBe(before.totalUsers + 2);
    expect(s.statusCounts.active).toBe(before.statusCounts.active);
    expect(s.statusCounts.cancelled_with_access).toBe(before.statusCounts.cancelled_with_access);
    expect(s.cancelledWithAccess).toBe(before.cancelledWithAccess);
    expect(s.statusCounts.expired).toBe(before.statusCounts.expired + 2);
    expect(s.expiredUsers).toBe(before.expiredUsers + 2);
    expect(s.activeSubscribers).toBe(before.activeSubscribers);
    expect(s.freeUsers).toBe(before.freeUsers + 2);
    const statusSum = Object.values(s.statusCounts as Record<string, number>).reduce((a, b) => a + b, 0);
    expect(statusSum).toBe(s.totalUsers);
  });

  it("computes tiers, statuses and pledge bands in SQL exactly as tier-policy's rules do", async () => {
    const now = Date.now();
    const expiries = [null, new Date(now - DAY_MS), new Date(now + DAY_MS)];
    const amounts = [0, 299, 300, 499, 500, 999, 1000, 2500];
    let i = 0;
    for (const tier of TIERS) {
      for (const status of SUBSCRIPTION_STATUSES) {
        for (const expiry of expiries) {
          const pledgeAmountCents = amounts[i++ % amounts.length] ?? 0;
          await createMember(app, { subscriptionTier: tier, subscriptionStatus: status, subscriptionExpiry: expiry, pledgeAmountCents });
        }
      }
    }
    const s = (await app.inject({ url: '/api/admin/stats', headers: asAdmin })).json();
    const rows = await db.select().from(users);
    const at = new Date();
    const byTier = Object.fromEntries(TIERS.map((t) => [t, 0]));
    const byBand = Object.fromEntries(TIERS.map((t) => [t, 0]));
    const byStatus = Object.fromEntries(SUBSCRIPTION_STATUSES.map((t) => [t, 0]));
    let active = 0;
    for (const u of rows) {
      const tier = effectiveTier(u, at);
      byTier[tier] = (byTier[tier] ?? 0) + 1;
      if (tier !== 'free') byBand[tierForPledgeCents(u.pledgeAmountCents)] = (byBand[tierForPledgeCents(u.pledgeAmountCents)] ?? 0) + 1;
      const ranOut = statusGivesAccess(u.subscriptionStatus) && !hasActiveSubscription(u, at);
      const paidUntilLater = u.subscriptionStatus === 'cancelled' && hasActiveSubscription(u, at);
      const status = ranOut ? 'expired' : paidUntilLater ? 'cancelled_with_access' : u.subscriptionStatus;
      byStatus[status] = (byStatus[status] ?? 0) + 1;
      if (tier !== 'free') active++;
    }
    expect(s.totalUsers).toBe(rows.length);
    expect({ vip: s.vipUsers, dhr2: s.dhr2Users, dhr1: s.dhr1Users, free: s.freeUsers }).toEqual(byTier);
    expect(s.pledgeBands).toEqual(byBand);
    expect(s.statusCounts).toEqual(byStatus);
    expect(s.activeSubscribers).toBe(active);
  });

  it('reports system status: database, platforms, channels', async () => {
    const res = await app.inject({ url: '/api/admin/system-status', headers: asAdmin });
    const s = res.json();
    expect(s.database).toMatchObject({ kind: app.database.kind, ok: true, error: null });
    expect(s.database.latencyMs).toBeGreaterThanOrEqual(0);
    expect(s.platforms.map((p: { platform: string }) => p.platform)).toEqual(['patreon', 'buymeacoffee']);
    expect(s.channels.map((c: { id: string }) => c.id)).toEqual(['dhr1', 'dhr2']);
    for (const c of s.channels) {
      expect(c).toMatchObject({ reachable: false, statusUrl: 'http://127.0.0.1:9/status-json.xsl' });
      expect(c.error).toEqual(expect.any(String));
    }
  });
});

describe('admin dates (Europe/Dublin)', () => {
  it('stores a date-only expiry as the end of that Dublin day, summer and winter', () => {
    expect(parseExpiryDate('2026-07-15')?.toISOString()).toBe('2026-07-15T22:59:59.999Z');
    expect(parseExpiryDate('2026-01-15')?.toISOString()).toBe('2026-01-15T23:59:59.999Z');
    expect(parseExpiryDate('2026-02-30')).toBeUndefined();
    expect(parseExpiryDate('31/12/2026')).toBeUndefined();
    expect(parseExpiryDate('2026-03-01T10:00:00.000Z')?.toISOString()).toBe('2026-03-01T10:00:00.000Z');
  });

  it('starts "today" at midnight in Dublin', () => {
    expect(startOfDayDublin(new Date('2026-07-15T10:00:00Z')).toISOString()).toBe('2026-07-14T23:00:00.000Z');
    expect(startOfDayDublin(new Date('2026-07-14T23:30:00Z')).toISOString()).toBe('2026-07-14T23:00:00.000Z');
    expect(startOfDayDublin(new Date('2026-07-14T22:30:00Z')).toISOString()).toBe('2026-07-13T23:00:00.000Z');
    expect(startOfDayDublin(new Date('2026-01-15T00:30:00Z')).toISOString()).toBe('2026-01-15T00:00:00.000Z');
  });
});

describe('storage status counts the media folder', async () => {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'dhr-media-'));
  await fs.mkdir(path.join(dataDir, 'media', 'mixes'), { recursive: true });
  await fs.writeFile(path.join(dataDir, 'media', 'mixes', 'a.mp3'), Buffer.alloc(1234));
  await fs.writeFile(path.join(dataDir, 'media', 'b.jpg'), Buffer.alloc(66));
  // Without the demo catalogue, whose mixes would add their audio to the folder.
  const app = await createTestApp({ DATA_DIR: dataDir, SEED_DEMO: 'false' });
  const admin = await memberWithRole(app, 'admin');

  it('reports bytes and files used', async () => {
    const st = (await app.inject({ url: '/api/admin/storage-status', headers: { cookie: admin.cookie } })).json();
    expect(st).toMatchObject({ mode: 'local', localPathExists: true, bytesUsed: 1300, fileCount: 2 });
    expect(st).not.toHaveProperty('s3');
    const stats = (await app.inject({ url: '/api/admin/stats', headers: { cookie: admin.cookie } })).json();
    expect(stats.storageUsed).toBe(1300);
  });
});

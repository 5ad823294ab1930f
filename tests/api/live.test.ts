import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { liveUsersReplySchema, type LiveUsersReply } from '../../src/contracts/live';
import { MINUTE_MS } from '../../src/contracts/time';
import { liveActivity, liveSessions } from '../../src/server/db/schema';
import { createTestApp, memberWithRole } from '../support/app';

const anonId = (n: number) => `anon-${String(n).padStart(12, '0')}`;

describe('live user monitor', async () => {
  // The test client speaks through a trusted proxy, so the visitor's address is the forwarded one.
  const app = await createTestApp({ TRUST_PROXY: '127.0.0.1' });
  const admin = await memberWithRole(app, 'admin');
  const vip = await memberWithRole(app, 'vip');
  const db = app.database.db;

  /** One heartbeat, then the write the server does a second later, done now. */
  const beat = async (body: unknown, headers: Record<string, string> = {}) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/admin/heartbeat',
      payload: body as object,
      headers: { 'x-forwarded-for': '8.8.8.8', ...headers },
    });
    await app.modules.heartbeats.flush();
    return res;
  };
  const liveUsers = async (): Promise<LiveUsersReply> => {
    const res = await app.inject({ url: '/api/admin/live-users', headers: { cookie: admin.cookie } });
    expect(res.statusCode).toBe(200);
    return liveUsersReplySchema.parse(res.json());
  };
  const rowCount = async () => (await db.select({ n: sql<number>`count(*)::int` }).from(liveSessions))[0]?.n ?? 0;

  it('keeps one row per visitor however often it beats, and counts its page views', async () => {
    for (const page of ['/', '/shop', '/shop', '/forum']) expect((await beat({ page, anonymousId: anonId(1) })).statusCode).toBe(200);
    const rows = await db
      .select()
      .from(liveSessions)
      .where(eq(liveSessions.id, `a:${anonId(1)}`));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ currentPage: '/forum', pageViews: 3, userId: null });
    const stats = await app.inject({ url: '/api/admin/anonymous-stats', headers: { cookie: admin.cookie } });
    expect(stats.json()).toMatchObject({ totalPageViews: 3, anonymousOnline: 1, anonymousSessions: 1 });
  });

  it('knows members by their session, names them to the admin, and logs their page changes as activity', async () => {
    await beat({ page: '/vip' }, { cookie: vip.cookie });
    await beat({ page: '/vip' }, { cookie: vip.cookie });
    await beat({ page: '/dhr2' }, { cookie: vip.cookie });
    const live = await liveUsers();
    const me = live.sessions.find((s) => s.email === vip.user.email);
    expect(me).toMatchObject({ userType: 'member', subscriptionTier: 'vip', currentPage: '/dhr2', isOnline: true, pageViews: 2 });
    // Members are listed before anonymous visitors.
    expect(live.sessions[0]?.userType).toBe('member');
    expect(live.vipOnline).toBe(1);
    const activity = await app.inject({ url: '/api/admin/recent-activity', headers: { cookie: admin.cookie } });
    const mine = (activity.json() as { email: string; page: string; action: string }[]).filter((a) => a.email === vip.user.email);
    expect(mine.map((a) => a.page)).toEqual(['/dhr2', '/vip']);
  });

  it('drops the anonymous row of a tab whose visitor signed in', async () => {
    await beat({ page: '/', anonymousId: anonId(2) });
    expect(
      await db
        .select()
        .from(liveSessions)
        .where(eq(liveSessions.id, `a:${anonId(2)}`)),
    ).toHaveLength(1);
    await beat({ page: '/', anonymousId: anonId(2) }, { cookie: vip.cookie });
    expect(
      await db
        .select()
        .from(liveSessions)
        .where(eq(liveSessions.id, `a:${anonId(2)}`)),
    ).toHaveLength(0);
  });

  it('counts a visitor online for 3 minutes after its last heartbeat, not after', async () => {
    await beat({ page: '/upload', anonymousId: anonId(3) });
    expect((await liveUsers()).sessions.some((s) => s.id === `a:${anonId(3)}`)).toBe(true);
    await db
      .update(liveSessions)
      .set({ lastSeenAt: new Date(Date.now() - 3 * MINUTE_MS - 1000) })
      .where(eq(liveSessions.id, `a:${anonId(3)}`));
    const after = await liveUsers();
    expect(after.sessions.some((s) => s.id === `a:${anonId(3)}`)).toBe(false);
    // Still a session of the day.
    expect(after.totalSessions).toBeGreaterThan(after.onlineNow);
  });

  it('refuses a 10 kB page, a forged member id and a malformed id, storing nothing', async () => {
    const before = await rowCount();
    const activityBefore = (await db.select().from(liveActivity)).length;
    const hostile = [
      { page: `/${'x'.repeat(10_000)}`, anonymousId: anonId(4) },
      { page: '/', anonymousId: anonId(4), userId: vip.user.id },
      { page: '/', memberId: admin.user.id },
      { page: '/', anonymousId: 'short' },
      { page: 'javascript:alert(1)', anonymousId: anonId(4) },
      { page: '/a b', anonymousId: anonId(4) },
    ];
    for (const body of hostile) expect((await beat(body)).statusCode, JSON.stringify(body).slice(0, 60)).toBe(400);
    expect(await rowCount()).toBe(before);
    expect((await db.select().from(liveActivity)).length).toBe(activityBefore);
  });

  it('answers at once and writes the beats of a second together, one row per visitor', async () => {
    const before = await rowCount();
    const replies = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        app.inject({ method: 'POST', url: '/api/admin/heartbeat', payload: { page: i % 2 ? '/dhr1' : '/vip', anonymousId: anonId(100 + (i % 10)) } }),
      ),
    );
    expect(replies.every((r) => r.statusCode === 200)).toBe(true);
    // Written by the buffer within about a second, without a flush from the test.
    const deadline = Date.now() + 5000;
    while ((await rowCount()) < before + 10 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(await rowCount()).toBe(before + 10);
  });

  it('stores no address, only the place it resolved to', async () => {
    await beat({ page: '/', anonymousId: anonId(5) });
    const [row] = await db
      .select()
      .from(liveSessions)
      .where(eq(liveSessions.id, `a:${anonId(5)}`));
    expect(row?.country).toBe('US');
    expect(JSON.stringify(row)).not.toContain('8.8.8.8');
    expect(Object.keys(row ?? {})).not.toContain('ip');
  });

  it('gives the monitor to admins only', async () => {
    const member = await memberWithRole(app, 'dhr2');
    for (const url of ['/api/admin/live-users', '/api/admin/recent-activity', '/api/admin/anonymous-stats']) {
      expect((await app.inject({ url })).statusCode).toBe(401);
      expect((await app.inject({ url, headers: { cookie: member.cookie } })).statusCode).toBe(403);
    }
  });
});

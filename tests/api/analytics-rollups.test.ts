import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { adminStatsSchema } from '../../src/contracts/admin';
import { ANALYTICS_MESSAGES, overviewSchema, summarySchema } from '../../src/contracts/analytics';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../../src/contracts/time';
import { listenerCounts, listeningDays, listeningSessions, memberDays, mixDays, mixDownloads, users } from '../../src/server/db/schema';
import { PLAY_WINDOW_MS } from '../../src/server/modules/mixes/mix-access-service';
import { countPlay } from '../../src/server/modules/mixes/mixes-repository';
import { dublinDate } from '../../src/server/lib/dates';
import { dayBounds, rollUpDay } from '../../src/server/modules/analytics/rollups-service';
import { rollupCommand, runRollupOffTheServer } from '../../src/server/modules/analytics/rollup-process';
import { changeGrants } from '../../src/server/modules/members/entitlement-service';
import { createMember, createTestApp, memberWithRole } from '../support/app';

describe('analytics rollups and the monthly summary', async () => {
  const app = await createTestApp();
  const db = app.database.db;
  const admin = await memberWithRole(app, 'admin');
  const now = new Date();
  // A day two days back, with sessions made here at known Dublin times.
  const day = dublinDate(new Date(now.getTime() - 2 * DAY_MS));
  const { start } = dayBounds(day);
  const at = (h: number, m = 0) => new Date(start.getTime() + h * HOUR_MS + m * MINUTE_MS);
  const session = (
    channelId: string,
    network: string,
    userAgent: string,
    from: Date,
    to: Date,
    extra: Partial<typeof listeningSessions.$inferInsert> = {},
  ) => ({
    channelId,
    mount: channelId === 'dhr1' ? '/dhr1-free' : `/${channelId}`,
    icecast: 'radio:8000',
    clientId: String(Math.random()).slice(2, 10),
    network,
    country: null,
    player: 'browser',
    userAgent,
    startedAt: from,
    lastSeenAt: to,
    endedAt: to,
    durationS: Math.round((to.getTime() - from.getTime()) / 1000),
    ...extra,
  });

  it('a listener present 30 minutes adds 0.5 listening hours; uniques, peak, countries and players from the sessions', async () => {
    await db.insert(listeningSessions).values([
      session('dhr1', '198.51.100.0/24', 'VLC/3.0', at(10), at(10, 30), { player: 'media_player', country: 'IE' }),
      session('dhr2', '203.0.113.0/24', 'Mozilla/5.0', at(10, 15), at(10, 45)),
      // The first listener again, later: one unique listener, two sessions.
      session('dhr1', '198.51.100.0/24', 'VLC/3.0', at(12), at(12, 6), { player: 'media_player', country: 'IE' }),
      // Began the day before, 30 minutes into this day: its half hour counts here, its session there.
      session('dhr2', '192.0.2.0/24', 'Sonos', new Date(start.getTime() - 30 * MINUTE_MS), at(0, 30), { player: 'smart_speaker' }),
    ]);
    await rollUpDay(db, day, now);
    const rows = await db.select().from(listeningDays).where(eq(listeningDays.day, day));
    const find = (channelId: string, dimension: string, value = '') =>
      rows.find((r) => r.channelId === channelId && r.dimension === dimension && r.value === value);
    expect(find('all', 'total')).toMatchObject({ uniques: 3, sessions: 3, peak: 2 });
    expect(find('all', 'total')?.hours).toBeCloseTo(0.5 + 0.5 + 0.1 + 0.5, 6);
    expect(find('all', 'total')?.peakAt?.toISOString()).toBe(at(10, 15).toISOString());
    expect(find('dhr1', 'total')).toMatchObject({ uniques: 1, sessions: 2, peak: 1, avgSessionS: 18 * 60 });
    expect(find('dhr1', 'total')?.hours).toBeCloseTo(0.6, 6);
    expect(find('all', 'country', 'IE')?.hours).toBeCloseTo(0.6, 6);
    expect(find('all', 'player', 'smart_speaker')).toMatchObject({ sessions: 0, uniques: 1 });
    expect(find('all', 'player', 'smart_speaker')?.hours).toBeCloseTo(0.5, 6);

    // Concurrency: 2 listeners from 10:15 to 10:30 across channels; each mount's 15-minute bucket has its mean.
    const quarters = await db.select().from(listenerCounts).where(eq(listenerCounts.resolutionMin, 15));
    const q = (mount: string, t: Date) => quarters.find((r) => r.mount === mount && r.at.getTime() === t.getTime());
    expect(q('/dhr1-free', at(10))).toMatchObject({ average: 1, peak: 1 });
    expect(q('/dhr2', at(10, 45))).toBeUndefined();
    expect(q('/dhr2', at(10, 30))).toMatchObject({ average: 1, peak: 1 });
    const minutes = await db.select().from(listenerCounts).where(eq(listenerCounts.resolutionMin, 1));
    expect(minutes.filter((r) => r.mount === '/dhr1-free')).toHaveLength(36);

    // Rebuilding gives the same figures, not twice them.
    await rollUpDay(db, day, now);
    expect((await db.select().from(listeningDays).where(eq(listeningDays.day, day))).length).toBe(rows.length);

    const summary = summarySchema.parse(
      (await app.inject({ url: `/api/admin/analytics/summary?month=${day.slice(0, 7)}`, headers: { cookie: admin.cookie } })).json(),
    );
    expect(summary.figures.listeningHours.value).toBeCloseTo(1.6, 6);
    expect(summary.figures.peak).toMatchObject({ value: 2, at: at(10, 15).toISOString() });
    expect(summary.figures.sessions.value).toBe(3);

    const page = overviewSchema.parse(
      (await app.inject({ url: `/api/admin/analytics/overview?from=${day}&to=${day}`, headers: { cookie: admin.cookie } })).json(),
    );
    expect(page.days).toEqual([expect.objectContaining({ day, uniques: 3, sessions: 3, peak: 2 })]);
    expect(page.figures.listeningHours.value).toBeCloseTo(1.6, 6);
    expect(page.listeners.channels).toEqual(['dhr1', 'dhr2']);
    expect(page.listeners.points.find((p) => p.at === at(10).toISOString())?.values).toEqual([1, 0]);
    expect(page.countries.find((c) => c.value === 'IE')?.hours).toBeCloseTo(0.6, 6);
    expect(page.players.map((p) => p.value)).toEqual(expect.arrayContaining(['media_player', 'browser', 'smart_speaker']));
    expect(page.previousTo < day && page.previousFrom === page.previousTo).toBe(true);
  });

  it('a member who pays 5 EUR adds 5 to MRR; a cancelled member with paid time counts where the dashboard counts them', async () => {
    const today = dublinDate(now);
    const payer = await createMember(app);
    // A free account from last week converts today.
    await db
      .update(users)
      .set({ createdAt: new Date(now.getTime() - 7 * DAY_MS) })
      .where(eq(users.id, payer.user.id));
    const later = new Date(now.getTime() + 30 * DAY_MS);
    await changeGrants(
      db,
      [
        {
          userId: payer.user.id,
          source: 'patreon',
          next: { source: 'patreon', tier: 'dhr1', status: 'active', expiry: later, pledgeAmountCents: 500 },
          reason: 'test',
        },
      ],
      { cause: 'sync' },
    );
    const leaver = await createMember(app);
    await changeGrants(
      db,
      [
        {
          userId: leaver.user.id,
          source: 'buymeacoffee',
          next: { source: 'buymeacoffee', tier: 'dhr2', status: 'active', expiry: later, pledgeAmountCents: 700 },
          reason: 'test',
        },
      ],
      { cause: 'sync' },
    );
    await changeGrants(db, [{ userId: leaver.user.id, source: 'buymeacoffee', next: (g) => g && { ...g, status: 'cancelled' }, reason: 'test' }], {
      cause: 'sync',
    });
    await rollUpDay(db, today, new Date());
    const summary = summarySchema.parse(
      (await app.inject({ url: `/api/admin/analytics/summary?month=${today.slice(0, 7)}`, headers: { cookie: admin.cookie } })).json(),
    );
    expect(summary.figures.mrrEuros.value).toBe(5);
    expect(summary.figures.newPaying.value).toBe(1);
    expect(summary.figures.conversions.value).toBe(1);
    expect(summary.figures.cameBack.value).toBe(0);
    const stats = adminStatsSchema.parse((await app.inject({ url: '/api/admin/stats', headers: { cookie: admin.cookie } })).json());
    expect(summary.figures.membersWithAccess.value).toBe(stats.activeSubscribers);
    expect(summary.figures.payingMembers.value).toBe(stats.activeSubscribers - stats.cancelledWithAccess);
    const mrr = await db.select().from(memberDays).where(eq(memberDays.figure, 'mrr_cents'));
    expect(mrr.filter((r) => r.day === today).map((r) => [r.platform, r.tier, r.value])).toEqual([['patreon', 'dhr1', 500]]);

    // The page's member charts say the same as the summary.
    const page = overviewSchema.parse(
      (await app.inject({ url: `/api/admin/analytics/overview?from=${today}&to=${today}`, headers: { cookie: admin.cookie } })).json(),
    );
    expect(page.mrr).toEqual([{ day: today, byPlatform: { patreon: 5 } }]);
    expect(page.flows).toEqual([
      {
        day: today,
        newPaying: summary.figures.newPaying.value,
        stoppedPaying: summary.figures.stoppedPaying.value,
        cameBack: 0,
        conversions: 1,
      },
    ]);
    expect(page.members.map((m) => [m.day, Object.values(m.byTier).reduce((a, b) => a + b, 0)])).toEqual([[today, stats.activeSubscribers]]);
  });

  it('reads a busy day a page at a time, sessions that share a start included, and an open one from the day before', async () => {
    const busy = dublinDate(new Date(now.getTime() - 5 * DAY_MS));
    const from = dayBounds(busy).start;
    const minute = (i: number) => new Date(from.getTime() + i * MINUTE_MS);
    // 1,600 one-minute sessions, three at each start: more than three pages, with ties across page ends.
    const rows = Array.from({ length: 1_600 }, (_, i) =>
      session('dhr1', `198.51.${i % 200}.0/24`, 'VLC/3.0', minute(Math.floor(i / 3)), minute(Math.floor(i / 3) + 1)),
    );
    for (let i = 0; i < rows.length; i += 1_000) await db.insert(listeningSessions).values(rows.slice(i, i + 1_000));
    // Half of them a few microseconds later (the database keeps microseconds; a session stored by SQL's
    // now() has them), half on the minute: each is read once, those on an hour's edge too.
    await db.execute(sql`update listening_sessions set started_at = started_at + d, ended_at = ended_at + d, last_seen_at = last_seen_at + d
      from (select id as sid, (abs(hashtext(id::text)) % 2) * (1 + abs(hashtext(id::text)) % 999) * interval '1 microsecond' as d from listening_sessions) x
      where id = x.sid and channel_id = 'dhr1' and started_at >= ${from.toISOString()}::timestamptz and started_at < ${dayBounds(busy).end.toISOString()}::timestamptz`);
    // Connected since 23:00 the day before, still listed at 01:00.
    await db
      .insert(listeningSessions)
      .values(
        session('dhr2', '192.0.2.0/24', 'Sonos', new Date(from.getTime() - HOUR_MS), new Date(from.getTime() + HOUR_MS), { endedAt: null, durationS: null }),
      );
    // A smart speaker left on for three and a half days: the whole day is its (read by its end, days later).
    await db
      .insert(listeningSessions)
      .values(session('dhr2', '203.0.113.0/24', 'Sonos', new Date(from.getTime() - 2 * DAY_MS), new Date(from.getTime() + 1.5 * DAY_MS)));
    await rollUpDay(db, busy, now);
    const all = (await db.select().from(listeningDays).where(eq(listeningDays.day, busy))).find((r) => r.channelId === 'all' && r.dimension === 'total');
    expect(all).toMatchObject({ sessions: 1_600, uniques: 202, peak: 5 });
    expect(all?.hours).toBeCloseTo(1_600 / 60 + 1 + (dayBounds(busy).end.getTime() - from.getTime()) / HOUR_MS, 6);
  });

  it("counts every play of a mix on the day it was played, not only a member's last one", async () => {
    const mix = 'mix-midnight-drift';
    const member = await createMember(app);
    // Days of their own (four and three days back), so the other tests' days stay as they made them.
    const first = dublinDate(new Date(now.getTime() - 4 * DAY_MS));
    const second = dublinDate(new Date(now.getTime() - 3 * DAY_MS));
    const on = (d: string, h: number, m = 0) => new Date(dayBounds(d).start.getTime() + h * HOUR_MS + m * MINUTE_MS);
    // 09:00 counts, 09:30 is the same listening (within the hour), 11:00 counts again, and the next day once more.
    const counted = [];
    for (const t of [on(first, 9), on(first, 9, 30), on(first, 11), on(second, 10)]) counted.push(await countPlay(db, member.user.id, mix, PLAY_WINDOW_MS, t));
    expect(counted).toEqual([true, false, true, true]);
    await db.insert(mixDownloads).values({ userId: member.user.id, mixId: mix, createdAt: on(first, 12) });
    for (const d of [first, second]) await rollUpDay(db, d, now);
    const rows = await db.select().from(mixDays).where(eq(mixDays.mixId, mix));
    expect(rows.filter((r) => r.day === first).map((r) => [r.plays, r.downloads])).toEqual([[2, 1]]);
    expect(rows.filter((r) => r.day === second).map((r) => [r.plays, r.downloads])).toEqual([[1, 0]]);
    // Rebuilding a day gives the same figures.
    await rollUpDay(db, first, now);
    const again = await db.select().from(mixDays).where(eq(mixDays.mixId, mix));
    expect(again.filter((r) => r.day === first).map((r) => r.plays)).toEqual([2]);
  });

  it("an admin's rebuild writes the day's figures again from its sessions; on PostgreSQL in a process of its own at the lowest priority", async () => {
    const rebuilt = dublinDate(new Date(now.getTime() - 3 * DAY_MS));
    const from = dayBounds(rebuilt).start;
    const total = async () =>
      (await db.select().from(listeningDays).where(eq(listeningDays.day, rebuilt))).find((r) => r.channelId === 'dhr2' && r.dimension === 'total');
    await rollUpDay(db, rebuilt, now);
    const before = { sessions: 0, hours: 0, ...(await total()) };
    // A session the day's rollup has not seen: only the rebuild counts it.
    await db
      .insert(listeningSessions)
      .values(session('dhr2', '198.51.100.77/24', 'Rebuild/1.0', new Date(from.getTime() + HOUR_MS), new Date(from.getTime() + 2 * HOUR_MS)));
    const res = await app.inject({ method: 'POST', url: '/api/admin/analytics/rebuild', headers: { cookie: admin.cookie }, payload: { day: rebuilt } });
    expect(res.statusCode).toBe(204);
    const after = await total();
    expect(after?.sessions).toBe(before.sessions + 1);
    expect(after?.hours).toBeCloseTo(before.hours + 1, 6);
    if (app.database.kind !== 'postgres') return;
    // Its own process: pointed at a database that is not there, the rollup fails, though this process's database is fine.
    await expect(runRollupOffTheServer(app.database, 'postgres://nobody:none@127.0.0.1:1/none', { kind: 'day', day: rebuilt })).rejects.toThrow(
      /The analytics rollup failed/,
    );
    const command = rollupCommand();
    expect([command.bin, ...command.args].join(' ')).toMatch(/chrt --idle 0 \S*node --import tsx \S*\/rollup-job\.ts$/);
  });

  it('refuses a bad month, a day too old to rebuild, and visitors and members', async () => {
    const bad = await app.inject({ url: '/api/admin/analytics/summary?month=2026-13', headers: { cookie: admin.cookie } });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain(ANALYTICS_MESSAGES.badMonth);
    const reversed = await app.inject({ url: `/api/admin/analytics/overview?from=${day}&to=2020-01-01`, headers: { cookie: admin.cookie } });
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json()).toMatchObject({ error: { code: 'bad_range', message: ANALYTICS_MESSAGES.badRange } });
    const old = await app.inject({ method: 'POST', url: '/api/admin/analytics/rebuild', headers: { cookie: admin.cookie }, payload: { day: '2020-01-01' } });
    expect(old.statusCode).toBe(400);
    expect(old.json()).toMatchObject({ error: { code: 'day_too_old', message: ANALYTICS_MESSAGES.dayTooOld } });
    const ok = await app.inject({ method: 'POST', url: '/api/admin/analytics/rebuild', headers: { cookie: admin.cookie }, payload: { day } });
    expect(ok.statusCode).toBe(204);
    const member = await memberWithRole(app, 'vip');
    expect((await app.inject({ url: '/api/admin/analytics/summary', headers: { cookie: member.cookie } })).statusCode).toBe(403);
    expect((await app.inject({ url: '/api/admin/analytics/summary' })).statusCode).toBe(401);
  });
});

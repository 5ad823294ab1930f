import { describe, expect, it } from 'vitest';
import { ANALYTICS_MESSAGES } from '../../src/contracts/analytics';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../../src/contracts/time';
import { listeningSessions, trackIdentifications } from '../../src/server/db/schema';
import { dublinDate } from '../../src/server/lib/dates';
import { dayBounds } from '../../src/server/modules/analytics/rollups-service';
import { createTestApp, memberWithRole } from '../support/app';

describe('the music report', async () => {
  const app = await createTestApp();
  const db = app.database.db;
  const admin = await memberWithRole(app, 'admin');
  const day = dublinDate(new Date(Date.now() - DAY_MS));
  const { start } = dayBounds(day);
  // The test hour: 20:00 to 21:00 Dublin time.
  const at = (m: number) => new Date(start.getTime() + 20 * HOUR_MS + m * MINUTE_MS);
  const play = (channel: string, title: string, from: number, seen: number, extra: Partial<typeof trackIdentifications.$inferInsert> = {}) => ({
    channel,
    title,
    artist: 'Artist',
    confidence: 100,
    service: 'audd' as const,
    identifiedAt: at(from),
    lastSeenAt: at(seen),
    ...extra,
  });
  const listener = (channelId: string, from: number, to: number) => ({
    channelId,
    mount: `/${channelId}`,
    icecast: 'radio:8000',
    clientId: String(from),
    network: '198.51.100.0/24',
    player: 'browser',
    userAgent: 'Mozilla/5.0',
    startedAt: at(from),
    lastSeenAt: at(to),
    endedAt: at(to),
    durationS: (to - from) * 60,
  });
  const report = (query: string) => app.inject({ url: `/api/admin/analytics/music-report.csv?${query}`, headers: { cookie: admin.cookie } });
  const parse = (csv: string) =>
    csv
      .trim()
      .split('\r\n')
      .map((l) => l.split(','));

  it('lists the tracks the radio played in the hour with their plays and tuning hours', async () => {
    await db.insert(trackIdentifications).values([
      play('dhr1', 'First', 0, 8, { durationS: 600, isrc: 'GBAYE2300001' }),
      // Ends at 20:20 (last heard), not at the next play at 20:40.
      play('dhr1', 'Second', 10, 20),
      play('dhr1', 'First', 40, 45, { isrc: 'GBAYE2300001' }),
      play('dhr2', 'Elsewhere', 5, 15),
    ]);
    await db.insert(listeningSessions).values([listener('dhr1', -10, 30), listener('dhr1', 5, 15), listener('dhr2', 50, 55)]);

    const res = await report(`from=${day}&to=${day}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toContain(`dhr-music-report-${day}-${day}.csv`);
    const [header, ...lines] = parse(res.body);
    expect(header).toEqual(['channel', 'start', 'end', 'artist', 'title', 'isrc', 'plays', 'tuning_hours']);
    expect(lines).toEqual([
      // 20:00-20:10: one listener all along, a second from 20:05: 15 listener-minutes.
      ['dhr1', at(0).toISOString(), at(10).toISOString(), 'Artist', 'First', 'GBAYE2300001', '2', '0.250'],
      ['dhr2', at(5).toISOString(), at(15).toISOString(), 'Artist', 'Elsewhere', '', '1', '0.000'],
      ['dhr1', at(10).toISOString(), at(20).toISOString(), 'Artist', 'Second', '', '1', '0.250'],
      ['dhr1', at(40).toISOString(), at(45).toISOString(), 'Artist', 'First', 'GBAYE2300001', '2', '0.000'],
    ]);

    const dhr2 = parse((await report(`from=${day}&to=${day}&channel=dhr2`)).body);
    expect(dhr2.slice(1).map((l) => l[4])).toEqual(['Elsewhere']);
  });

  it('refuses a reversed or too long range, an unknown channel, and anyone but an admin', async () => {
    const reversed = await report(`from=${day}&to=2020-01-01`);
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json()).toMatchObject({ error: { code: 'bad_range', message: ANALYTICS_MESSAGES.badReportRange } });
    expect((await report('from=2026-01-01&to=2026-03-01')).statusCode).toBe(400);
    expect((await report('from=yesterday&to=today')).statusCode).toBe(400);
    const unknown = await report(`from=${day}&to=${day}&channel=dhr9`);
    expect(unknown.statusCode).toBe(404);
    const vip = await memberWithRole(app, 'vip');
    expect((await app.inject({ url: `/api/admin/analytics/music-report.csv?from=${day}&to=${day}`, headers: { cookie: vip.cookie } })).statusCode).toBe(403);
  });
});

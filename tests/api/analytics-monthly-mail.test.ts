import { describe, expect, it } from 'vitest';
import { summarySchema } from '../../src/contracts/analytics';
import { HOUR_MS, MINUTE_MS } from '../../src/contracts/time';
import { listeningSessions } from '../../src/server/db/schema';
import { sendMonthlySummary } from '../../src/server/modules/analytics/monthly-mail';
import { dayBounds, rollUpDay } from '../../src/server/modules/analytics/rollups-service';
import { createTestApp, memberWithRole } from '../support/app';
import { readOutbox, tempDataDir } from '../support/outbox';

describe('the monthly summary mailed to admins', async () => {
  const dataDir = tempDataDir();
  const app = await createTestApp({ DATA_DIR: dataDir });
  const db = app.database.db;
  const admin = await memberWithRole(app, 'admin');
  // The first of October 2026, 10:00 in Dublin: September's summary, against August.
  const now = new Date('2026-10-01T09:00:00Z');
  const listen = (day: string, minutes: number, i: number) => {
    const start = new Date(dayBounds(day).start.getTime() + 20 * HOUR_MS);
    return {
      channelId: 'dhr1',
      mount: '/dhr1-free',
      icecast: 'radio:8000',
      clientId: String(i),
      network: `198.51.${i}.0/24`,
      player: 'browser',
      userAgent: 'Mozilla/5.0',
      startedAt: start,
      lastSeenAt: new Date(start.getTime() + minutes * MINUTE_MS),
      endedAt: new Date(start.getTime() + minutes * MINUTE_MS),
      durationS: minutes * 60,
    };
  };

  it("mails last month's figures with their change and a link to /analytics, once", async () => {
    await db.insert(listeningSessions).values([listen('2026-08-15', 60, 1), listen('2026-09-15', 30, 2)]);
    await rollUpDay(db, '2026-08-15', now);
    await rollUpDay(db, '2026-09-15', now);
    expect(await sendMonthlySummary(db, app.mailer, 'https://dhr.example', new Date('2026-09-30T12:00:00Z'))).toBe(0);

    expect(await sendMonthlySummary(db, app.mailer, 'https://dhr.example', now)).toBe(1);
    const mails = readOutbox(dataDir).filter((m) => m.to.includes(admin.user.email));
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe('DHR in September 2026: listeners, supporters and music');
    expect(mails[0]?.body).toContain('Listening hours: 0.5 (-50% on August)');
    expect(mails[0]?.body).toContain('Peak listeners at once: 1 (+0% on August)');
    expect(mails[0]?.body).toContain('https://dhr.example/analytics');

    // Once per month, however many instances tick.
    expect(
      await Promise.all([sendMonthlySummary(db, app.mailer, 'https://dhr.example', now), sendMonthlySummary(db, app.mailer, 'https://dhr.example', now)]),
    ).toEqual([0, 0]);
    expect(readOutbox(dataDir).filter((m) => m.to.includes(admin.user.email))).toHaveLength(1);

    // The summary read gives the same figures.
    const summary = summarySchema.parse((await app.inject({ url: '/api/admin/analytics/summary?month=2026-09', headers: { cookie: admin.cookie } })).json());
    expect(summary).toMatchObject({ from: '2026-09-01', to: '2026-09-30', previousFrom: '2026-08-01', previousTo: '2026-08-31' });
    expect(summary.figures.listeningHours).toEqual({ value: 0.5, previous: 1, change: -0.5 });
  });
});

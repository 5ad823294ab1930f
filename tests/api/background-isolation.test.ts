// Nothing an operator or a job does stalls a listener (docs/decisions/0034-background-work-off-the-request-path.md):
// a sync whose platforms take 8 s to answer holds no connection, row or thread while it waits, and a
// long statement runs off the thread that answers requests.
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { runInBackground } from '../../src/server/db/lanes';
import { createTestApp, memberWithRole } from '../support/app';
import { bmcSubscription, patreonMember, startBmcStub, startPatreonStub } from '../support/platform-stubs';

const PATREON_TOKEN = 'iso-patreon-token';
const BMC_TOKEN = 'iso-bmc-token';
const CAMPAIGN = '7331';
const PLATFORM_DELAY_MS = 8_000;

/** How long `fn` takes to answer, in ms. */
async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await fn();
  return { ms: performance.now() - started, value };
}

describe('background work and listeners', async () => {
  const patreon = await startPatreonStub({
    token: PATREON_TOKEN,
    campaignId: CAMPAIGN,
    pageSize: 100,
    members: Array.from({ length: 50 }, (_, i) => patreonMember({ email: `iso-p${i}@example.test`, status: 'active_patron', cents: 500 })),
  });
  const bmc = await startBmcStub({ token: BMC_TOKEN, pageSize: 100, subscriptions: [bmcSubscription({ email: 'iso-b@example.test', price: '5.000' })] });
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
  const listener = await memberWithRole(app, 'dhr1');

  it('answers listeners at once while a sync waits 8 s for its platforms', { timeout: 60_000 }, async () => {
    patreon.state.delayMs = PLATFORM_DELAY_MS;
    bmc.state.delayMs = PLATFORM_DELAY_MS;
    const started = performance.now();
    const sync = app.inject({ method: 'POST', url: '/api/admin/sync-subscriptions', headers: { cookie: admin.cookie }, payload: { dryRun: false } });
    // Past the health check's one-second memory, so its answer asks the database again.
    await new Promise((r) => setTimeout(r, 1_500));
    const health = await timed(() => app.inject('/api/health'));
    const me = await timed(() => app.inject({ url: '/api/auth/me', headers: { cookie: listener.cookie } }));
    const chat = await timed(() =>
      app.inject({
        method: 'POST',
        url: '/api/chat/dhr1/messages',
        headers: { cookie: listener.cookie },
        payload: { text: 'still here while the sync waits' },
      }),
    );
    // The sync is still waiting for the platforms when all three have answered.
    expect(performance.now() - started).toBeLessThan(PLATFORM_DELAY_MS);
    expect(health.value.statusCode).toBe(200);
    expect(me.value.statusCode).toBe(200);
    expect(chat.value.statusCode).toBe(201);
    for (const answered of [health, me, chat]) expect(answered.ms).toBeLessThan(1_000);
    const done = await sync;
    expect(done.statusCode, done.body).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(PLATFORM_DELAY_MS);
  });

  it('answers from memory while a long statement runs in the database', { timeout: 60_000 }, async () => {
    // Warm the live metadata's memory answer.
    await app.inject('/api/live-metadata');
    const long = app.database.db.execute(sql`SELECT pg_sleep(2)`);
    await new Promise((r) => setTimeout(r, 200));
    // On PGlite the statement runs on the database's own thread (db/pglite-thread.ts): the event loop is free.
    const metadata = await timed(() => app.inject('/api/live-metadata'));
    expect([200, 503]).toContain(metadata.value.statusCode);
    expect(metadata.ms).toBeLessThan(500);
    const slept = await timed(() => long);
    expect(slept.ms).toBeGreaterThan(1_000);
  });

  it('rests the background lane between its units, statements and transactions alike, and never the requests', { timeout: 60_000 }, async () => {
    const { db } = app.database;
    // Listeners keep coming (the lane rests only while the station is listened to, ADR 0037).
    const listeners = setInterval(() => void app.inject({ url: '/api/channels' }), 200);
    await app.inject({ url: '/api/channels' });
    // A short unit first: the lane may still rest after an earlier test's job.
    await runInBackground(() => db.execute(sql`SELECT 1`));
    const started = performance.now();
    await runInBackground(async () => {
      for (let i = 0; i < 3; i++) await db.execute(sql`SELECT pg_sleep(0.1)`);
      for (let i = 0; i < 2; i++) await db.transaction(async (tx) => tx.execute(sql`SELECT pg_sleep(0.1)`));
    }).finally(() => clearInterval(listeners));
    // Five units of 0.1 s, with a rest as long after each of the first four (BACKGROUND_SHARE = 0.5).
    expect(performance.now() - started).toBeGreaterThanOrEqual(880);
    // The lane is resting after its last unit: a request's statement does not wait for that.
    const request = await timed(() => db.execute(sql`SELECT 1`));
    expect(request.ms).toBeLessThan(60);
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)('on PostgreSQL, a job holds two connections of its own and a request finds one free', async () => {
    const started = performance.now();
    // Four statements of a job at once: they share the job's two connections.
    const job = runInBackground(() => Promise.all(Array.from({ length: 4 }, () => app.database.db.execute(sql`SELECT pg_sleep(0.3)`))));
    await new Promise((r) => setTimeout(r, 50));
    const request = await timed(() => app.database.db.execute(sql`SELECT 1`));
    await job;
    expect(request.ms).toBeLessThan(200);
    // Two rounds of 0.3 s, not one (and the lane's rest between them).
    expect(performance.now() - started).toBeGreaterThanOrEqual(550);
  });
});

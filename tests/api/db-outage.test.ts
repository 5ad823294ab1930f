import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { users } from '../../src/server/db/schema';
import { createSession, SESSION_COOKIE } from '../../src/server/lib/sessions';
import { findPostgresBin, POSTGRES_INSTALL_HINT, startPrivatePostgres, type PrivatePostgres } from '../support/private-postgres';

const ci = process.env.CI === 'true' || process.env.CI === '1';
const bin = findPostgresBin();

/**
 * The database goes away and comes back, on a PostgreSQL server this file starts for
 * itself. Skipped where the server binaries are missing (scripts/test.ts names it), failed under CI.
 */
describe.skipIf(!bin && !ci)(`a database outage (needs ${POSTGRES_INSTALL_HINT})`, async () => {
  if (!bin) {
    it('has the PostgreSQL binaries it needs under CI', () => {
      throw new Error(`CI=true but ${POSTGRES_INSTALL_HINT} are missing`);
    });
    return;
  }

  let pg: PrivatePostgres | undefined;
  let app: FastifyInstance | undefined;
  afterAll(async () => {
    vi.useRealTimers();
    await app?.close().catch(() => undefined);
    pg?.destroy();
  });

  it(
    'answers 503 with Retry-After while PostgreSQL is down, serves cached public reads, and recovers without losing a commit',
    { timeout: 120_000 },
    async () => {
      pg = await startPrivatePostgres(bin);
      const config = loadConfig({ LOG_LEVEL: 'silent', PUBLIC_URL: 'http://localhost:3000', DATABASE_URL: pg.url }, { backgroundJobs: false, memoryDb: true });
      const server = await buildApp(config, { logger: false });
      app = server;
      await server.ready();
      const db = server.database.db;

      // An admin, and a member written through the API (committed before the outage).
      const [admin] = await db.insert(users).values({ email: 'admin@outage.test', username: 'admin', isAdmin: true }).returning();
      if (!admin) throw new Error('no admin');
      const adminCookie = `${SESSION_COOKIE}=${await createSession(db, admin.id)}`;
      const created = await server.inject({
        method: 'POST',
        url: '/api/admin/users',
        headers: { cookie: adminCookie },
        payload: { email: 'kept@outage.test', username: 'kept', firstName: 'Committed', subscriptionTier: 'vip' },
      });
      expect(created.statusCode, created.body).toBe(201);
      const memberId = (created.json() as { id: string }).id;
      const memberCookie = `${SESSION_COOKIE}=${await createSession(db, memberId)}`;

      // Public reads warm their caches while the database answers.
      await server.modules.nowPlaying.publish({
        channel: 'dhr1',
        online: true,
        artist: 'Kerri Chandler',
        title: 'Rain',
        album: '',
        current_track: 'Kerri Chandler - Rain',
        listeners: 3,
        bitrate: 128,
        updatedAt: new Date().toISOString(),
      });
      const publicReads = ['/api/channels', '/api/live-metadata', '/api/live-metadata/dhr1'];
      const warm: Record<string, string> = {};
      for (const url of publicReads) {
        const res = await server.inject({ url });
        expect(res.statusCode, url).toBe(200);
        warm[url] = res.body;
      }

      // Another instance's cache invalidations arrive by NOTIFY; this instance must hear them again after the outage.
      const heard: string[] = [];
      await server.database.listen('dhr_outage_probe', (payload) => heard.push(payload));
      await server.database.notify('dhr_outage_probe', 'before');
      await expect.poll(() => heard, { timeout: 5000 }).toContain('before');

      // A crash: no checkpoint, so what was committed must come back from the WAL.
      pg.stop('immediate');
      // Past every cache lifetime, so cached answers are served because the database is away, not because they are fresh.
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() + 10 * 60_000);

      const down = [
        { url: '/api/auth/me', cookie: memberCookie },
        { url: '/api/admin/users', cookie: adminCookie },
        { url: '/api/user/permissions', cookie: memberCookie },
      ];
      for (const { url, cookie } of down) {
        const started = performance.now();
        const res = await server.inject({ url, headers: { cookie } });
        expect(res.statusCode, `${url}: ${res.body}`).toBe(503);
        expect(res.headers['retry-after'], url).toMatch(/^[1-9]\d*$/);
        expect(res.json(), url).toMatchObject({ error: { code: 'service_unavailable' } });
        expect(performance.now() - started, url).toBeLessThan(5000);
      }
      const write = await server.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: { email: 'lost@outage.test', username: 'lost', password: 'a-long-enough-password' },
      });
      expect(write.statusCode, write.body).toBe(503);
      expect(write.headers['retry-after']).toBeDefined();
      expect((await server.inject({ url: '/api/health' })).statusCode).toBe(503);

      // Cached public reads go on, for visitors and for members whose session cannot be looked up.
      for (const url of publicReads) {
        for (const cookie of [undefined, memberCookie]) {
          const res = await server.inject({ url, headers: cookie ? { cookie } : {} });
          expect(res.statusCode, `${url} ${cookie ? 'member' : 'visitor'}: ${res.body}`).toBe(200);
          expect(res.body, url).toBe(warm[url]);
        }
      }

      // The database comes back: the app recovers on its own.
      vi.useRealTimers();
      pg.start();
      const deadline = Date.now() + 30_000;
      while ((await server.inject({ url: '/api/health' })).statusCode !== 200) {
        if (Date.now() > deadline) throw new Error('health did not recover within 30 s');
        await new Promise((r) => setTimeout(r, 100));
      }
      const me = await server.inject({ url: '/api/auth/me', headers: { cookie: memberCookie } });
      expect(me.statusCode, me.body).toBe(200);
      expect(me.json()).toMatchObject({ email: 'kept@outage.test', subscriptionTier: 'vip' });
      const [kept] = await db.select().from(users).where(eq(users.id, memberId));
      expect(kept).toMatchObject({ firstName: 'Committed', subscriptionTier: 'vip' });
      // The LISTEN connection was opened again on its own: a NOTIFY after the restart reaches this instance.
      await expect
        .poll(
          async () => {
            await server.database.notify('dhr_outage_probe', 'after');
            return heard.includes('after');
          },
          { timeout: 45_000, interval: 500 },
        )
        .toBe(true);
      // The write refused during the outage left nothing behind, and the same write now succeeds.
      expect(await db.select().from(users).where(eq(users.email, 'lost@outage.test'))).toEqual([]);
      const retried = await server.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: { email: 'lost@outage.test', username: 'lost', password: 'a-long-enough-password' },
      });
      expect(retried.statusCode, retried.body).toBe(201);
    },
  );
});

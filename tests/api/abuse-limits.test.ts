import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { liveSessions } from '../../src/server/db/schema';
import { hashPassword } from '../../src/server/modules/auth/passwords';
import { VISITORS_PER_ADDRESS } from '../../src/server/modules/visitors/visitors-per-address';
import { createMember, createTestApp } from '../support/app';

/** Limits that meet abusers, not listeners. */
describe('limits that meet abusers', async () => {
  const app = await createTestApp();
  const db = app.database.db;
  const password = 'a-long-enough-password';
  const signIn = (email: string, pw: string, remoteAddress: string) =>
    app.inject({ method: 'POST', url: '/api/auth/email-login-secure', remoteAddress, payload: { email, password: pw } });

  it('lets a household sign in 30 times in 15 minutes from one address: only failures count', async () => {
    const member = await createMember(app, { passwordHash: await hashPassword(password) });
    for (let i = 0; i < 30; i++) expect((await signIn(member.user.email, password, '10.24.0.1')).statusCode, `sign-in ${i + 1}`).toBe(200);
  });

  it("resets that account's failures from the address on a success, and still stops a guesser", async () => {
    const member = await createMember(app, { passwordHash: await hashPassword(password) });
    const ip = '10.24.1.1';
    for (let i = 0; i < 9; i++) expect((await signIn(member.user.email, 'wrong-password', ip)).statusCode).toBe(401);
    expect((await signIn(member.user.email, password, ip)).statusCode).toBe(200);
    for (let i = 0; i < 9; i++) expect((await signIn(member.user.email, 'wrong-password', ip)).statusCode, `failure ${i + 1} after the reset`).toBe(401);
    expect((await signIn(member.user.email, 'wrong-password', ip)).statusCode).toBe(401);
    const locked = await signIn(member.user.email, password, ip);
    expect(locked.statusCode).toBe(429);
    expect(locked.json().message).toMatch(/^Too many attempts\. Please try again in \d+ minutes?\.$/);
  });

  it('stores at most 10 visitors per address per minute; beats beyond are answered and dropped', async () => {
    const count = async () => (await db.select({ n: sql<number>`count(*)::int` }).from(liveSessions))[0]?.n ?? 0;
    const before = await count();
    for (let i = 0; i < 40; i++) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/admin/heartbeat',
        remoteAddress: '10.24.2.1',
        payload: { page: '/', anonymousId: `flood-${String(i).padStart(12, '0')}` },
      });
      expect(res.statusCode).toBe(200);
    }
    // Another address is not held up by the flood.
    await app.inject({ method: 'POST', url: '/api/admin/heartbeat', remoteAddress: '10.24.3.1', payload: { page: '/', anonymousId: 'listener-000000000001' } });
    await app.modules.heartbeats.flush();
    expect((await count()) - before).toBe(VISITORS_PER_ADDRESS + 1);
  });

  it('takes only a page path of the app, without query or fragment, as the heartbeat page', async () => {
    for (const page of ['/vip?token=abc', '/vip#x', '/not-a-page', 'https://evil.example/', '/vip/../admin']) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/admin/heartbeat',
        remoteAddress: '10.24.4.1',
        payload: { page, anonymousId: 'visitor-0000000000001' },
      });
      expect(res.statusCode, page).toBe(400);
    }
    for (const page of ['/vip', '/player/dhr1', '/']) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/admin/heartbeat',
        remoteAddress: '10.24.4.1',
        payload: { page, anonymousId: 'visitor-0000000000001' },
      });
      expect(res.statusCode, page).toBe(200);
    }
  });

  it('counts an upload against its limit before reading its body', async () => {
    const member = await createMember(app, { subscriptionTier: 'vip', subscriptionStatus: 'active' });
    const upload = (payload: Buffer) =>
      app.inject({
        method: 'POST',
        url: '/api/users/upload-image',
        remoteAddress: '10.24.5.1',
        payload,
        headers: { cookie: member.cookie, 'content-type': 'multipart/form-data; boundary=x' },
      });
    for (let i = 0; i < 10; i++) expect((await upload(Buffer.from('--x--'))).statusCode).toBe(400);
    // Over the body limit: had the body been read first, this would be a 413.
    const big = await upload(Buffer.alloc(7 * 1024 * 1024, 0x61));
    expect(big.statusCode).toBe(429);
  });
});

import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { COMMENT_HIDE_REPORTS, type Comment, type ModeratedComment, type Profile } from '../../src/contracts/community';
import { DAY_MS } from '../../src/contracts/time';
import { comments, users } from '../../src/server/db/schema';
import { createMember, createTestApp, memberWithRole, type TestMember } from '../support/app';
import { freshIp } from '../support/auth-client';

/** Reports that need standing, and the article title and source under the link rule. */
describe('reports that need standing', async () => {
  const app = await createTestApp();
  const db = app.database.db;
  const admin = await memberWithRole(app, 'admin');
  const author = await memberWithRole(app, 'dhr1');
  const paid = async () => createMember(app, { subscriptionTier: 'dhr1', subscriptionStatus: 'active' });

  let n = 0;
  const newComment = async (by: TestMember = author) => {
    n += 1;
    const [row] = await db
      .insert(comments)
      .values({ discussionId: 'standing', userId: by.user.id, authorName: by.user.username, authorTier: 'dhr1', content: `comment ${n}`, status: 'approved' })
      .returning();
    return row!.id;
  };
  const report = (who: TestMember, id: string, remoteAddress = freshIp()) =>
    app.inject({ method: 'POST', url: `/api/comments/${id}/report`, remoteAddress, payload: { reason: 'spam' }, headers: { cookie: who.cookie } });
  const visible = async (id: string) => (await app.inject({ url: '/api/comments/standing' })).json<Comment[]>().some((c) => c.id === id);
  const queued = async (id: string) =>
    (await app.inject({ url: '/api/admin/comments/reported', headers: { cookie: admin.cookie } })).json<ModeratedComment[]>().some((c) => c.id === id);

  it('three free or unverified sign-ups cannot hide a comment; their reports still reach the queue', async () => {
    const id = await newComment();
    const throwaways = [
      await createMember(app),
      await createMember(app, { emailVerifiedAt: null }),
      await createMember(app, { subscriptionTier: 'vip', subscriptionStatus: 'active', emailVerifiedAt: null }),
    ];
    for (const t of throwaways) expect((await report(t, id)).statusCode).toBe(200);
    expect(await visible(id)).toBe(true);
    expect(await queued(id)).toBe(true);
  });

  it(`${COMMENT_HIDE_REPORTS} members with standing hide it: paid, or free but older than 14 days with an approved comment`, async () => {
    const id = await newComment();
    const seasoned = await createMember(app, { createdAt: new Date(Date.now() - 15 * DAY_MS) });
    await newComment(seasoned);
    for (const r of [await paid(), await paid(), seasoned]) await report(r, id);
    expect(await visible(id)).toBe(false);
  });

  it('counts one person once: accounts reporting from the same /64 within a day', async () => {
    const id = await newComment();
    for (const [i, r] of [await paid(), await paid(), await paid()].entries()) await report(r, id, `2001:db8:24:1::${i + 1}`);
    expect(await visible(id)).toBe(true);
    expect(await queued(id)).toBe(true);
  });

  it("never hides an admin's comment; the reports go to the queue", async () => {
    const id = await newComment(admin);
    for (const r of [await paid(), await paid(), await paid()]) await report(r, id);
    expect(await visible(id)).toBe(true);
    expect(await queued(id)).toBe(true);
  });

  it('does not let follows from accounts younger than 7 days raise reputation', async () => {
    const star = await paid();
    const reputation = async () => (await app.inject({ url: `/api/users/${star.user.id}/profile`, headers: { cookie: admin.cookie } })).json<Profile>();
    const base = (await reputation()).reputationScore;
    for (let i = 0; i < 3; i++) {
      const young = await createMember(app);
      await app.inject({ method: 'POST', url: `/api/users/${star.user.id}/follow`, remoteAddress: freshIp(), headers: { cookie: young.cookie } });
    }
    expect(await reputation()).toMatchObject({ followerCount: 3, reputationScore: base });
    const old = await createMember(app);
    await db
      .update(users)
      .set({ createdAt: new Date(Date.now() - 8 * DAY_MS) })
      .where(eq(users.id, old.user.id));
    await app.inject({ method: 'POST', url: `/api/users/${star.user.id}/follow`, remoteAddress: freshIp(), headers: { cookie: old.cookie } });
    expect((await reputation()).reputationScore).toBeGreaterThan(base);
  });

  it('holds a comment whose article title or source carries a link, like its text', async () => {
    for (const field of ['articleTitle', 'articleSource']) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/comments',
        remoteAddress: freshIp(),
        headers: { cookie: (await paid()).cookie },
        payload: { articleId: 'homepage', content: 'Nice set', [field]: 'Action required: verify at https://evil.example/login' },
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().comment.status, field).toBe('pending');
    }
  });
});

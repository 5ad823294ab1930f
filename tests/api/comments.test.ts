import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import {
  COMMENT_HIDE_REPORTS,
  COMMENT_MESSAGES,
  MODERATION_MESSAGES,
  type Comment,
  type ModeratedComment,
  type RecentComment,
} from '../../src/contracts/community';
import { DAY_MS } from '../../src/contracts/time';
import { commentBans, comments, moderationLog } from '../../src/server/db/schema';
import { assertMayPost, spamVerdict } from '../../src/server/modules/comments/comment-rules';
import { COMMENTS_CHANNEL } from '../../src/server/modules/comments/comments-cache';
import { createTestApp, memberWithRole, type Role, type TestMember } from '../support/app';
import { freshIp } from '../support/auth-client';

type Who = TestMember | undefined;

function post(app: FastifyInstance, who: Who, payload: object) {
  return app.inject({ method: 'POST', url: '/api/comments', remoteAddress: freshIp(), payload, headers: who ? { cookie: who.cookie } : {} });
}
function get(app: FastifyInstance, url: string, who?: Who) {
  return app.inject({ method: 'GET', url, headers: who ? { cookie: who.cookie } : {} });
}
function report(app: FastifyInstance, who: Who, id: string, reason = 'spam') {
  return app.inject({
    method: 'POST',
    url: `/api/comments/${id}/report`,
    remoteAddress: freshIp(),
    payload: { reason },
    headers: who ? { cookie: who.cookie } : {},
  });
}
function moderate(app: FastifyInstance, who: Who, method: 'PATCH' | 'DELETE' | 'GET' | 'POST', url: string, payload?: object) {
  return app.inject({ method, url, ...(payload ? { payload } : {}), headers: who ? { cookie: who.cookie } : {} });
}
const list = (app: FastifyInstance, discussion: string, who?: Who) => get(app, `/api/comments/${discussion}`, who).then((r) => r.json<Comment[]>());

async function banned(app: FastifyInstance, expiresAt: Date | null): Promise<TestMember> {
  const m = await memberWithRole(app, 'dhr1');
  const admin = await memberWithRole(app, 'admin');
  await app.database.db.insert(commentBans).values({ userId: m.user.id, reason: 'spam', expiresAt, bannedBy: admin.user.id });
  return m;
}

describe('comments: posting and reading', async () => {
  const app = await createTestApp();
  const members = {
    free: await memberWithRole(app, 'free'),
    dhr1: await memberWithRole(app, 'dhr1'),
    dhr2: await memberWithRole(app, 'dhr2'),
    vip: await memberWithRole(app, 'vip'),
    'expired-vip': await memberWithRole(app, 'expired-vip'),
    admin: await memberWithRole(app, 'admin'),
  };
  const bannedMember = await banned(app, null);

  it('role matrix: anonymous 401, free and expired 403 with the spec message, banned 403 (banned), paid tiers and admins 201', async () => {
    const cases: [Role | 'banned', Who, number, string | RegExp][] = [
      ['anonymous', undefined, 401, /Authentication required/],
      ['free', members.free, 403, COMMENT_MESSAGES.subscriptionRequired],
      ['expired-vip', members['expired-vip'], 403, COMMENT_MESSAGES.subscriptionRequired],
      ['banned', bannedMember, 403, /banned/],
      ['dhr1', members.dhr1, 201, COMMENT_MESSAGES.posted],
      ['dhr2', members.dhr2, 201, COMMENT_MESSAGES.posted],
      ['vip', members.vip, 201, COMMENT_MESSAGES.posted],
      ['admin', members.admin, 201, COMMENT_MESSAGES.posted],
    ];
    for (const [role, who, status, message] of cases) {
      const res = await post(app, who, { articleId: 'matrix', content: `Hello from ${role} on the deep side` });
      expect(res.statusCode, role).toBe(status);
      expect(res.json().message, role).toMatch(message);
    }
    const stored = await app.database.db.select().from(comments).where(eq(comments.discussionId, 'matrix'));
    expect(stored.map((c) => c.authorTier).sort()).toEqual(['dhr1', 'dhr2', 'free', 'vip']); // the admin has no paid tier
  });

  it('takes the author from the session, accepts both payload shapes and never shows an email', async () => {
    const news = await post(app, members.vip, {
      articleId: 'news-42',
      articleTitle: 'Sunset vinyl',
      articleSource: 'DHR News',
      comment: '  Great set last night  ',
      userId: members.dhr1.user.id,
      userName: 'impostor',
      userEmail: 'impostor@example.test',
      userTier: 'free',
    });
    expect(news.statusCode).toBe(201);
    const c = news.json<{ comment: Comment }>().comment;
    expect(c).toMatchObject({
      userId: members.vip.user.id,
      username: members.vip.user.username,
      userTier: 'vip',
      content: 'Great set last night',
      articleTitle: 'Sunset vinyl',
    });
    const res = await get(app, '/api/comments/news-42');
    expect(res.body).not.toContain('@example.test');
    expect(res.json<Comment[]>()[0]?.content).toBe('Great set last night');
  });

  it('trims, refuses blank and over-long text, keeps markup as text', async () => {
    const blank = await post(app, members.dhr1, { articleId: 'rules', content: '   \n ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().message).toBe(COMMENT_MESSAGES.empty);
    const long = await post(app, members.dhr1, { articleId: 'rules', content: 'x'.repeat(501) });
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toBe(COMMENT_MESSAGES.tooLong);
    expect((await post(app, members.dhr1, { articleId: 'rules', content: ` ${'y'.repeat(500)} ` })).statusCode).toBe(201);
    const script = await post(app, members.dhr2, { articleId: 'rules', content: '<script>alert(1)</script> javascript:alert(1)' });
    expect(script.statusCode).toBe(201);
    expect((await list(app, 'rules')).map((c) => c.content)).toContain('<script>alert(1)</script> javascript:alert(1)');
    const rows = await app.database.db.select().from(comments).where(eq(comments.discussionId, 'rules'));
    expect(rows).toHaveLength(2);
  });

  it('holds links, repeats and bursts for moderation; the author sees them as pending, others do not', async () => {
    const author = await memberWithRole(app, 'dhr1');
    const link = await post(app, author, { articleId: 'spam', content: 'Buy now at https://cheap.example' });
    expect(link.json()).toMatchObject({ message: COMMENT_MESSAGES.submitted, comment: { status: 'pending' } });
    expect((await post(app, author, { articleId: 'spam', content: 'Lovely groove' })).json().comment.status).toBe('approved');
    expect((await post(app, author, { articleId: 'spam', content: 'lovely   GROOVE' })).json().comment.status).toBe('pending');
    // Three comments within the burst window: the fourth waits.
    expect((await post(app, author, { articleId: 'spam', content: 'Fourth thought' })).json().comment.status).toBe('pending');
    const own = await list(app, 'spam', author);
    expect(own.filter((c) => c.status === 'pending')).toHaveLength(3);
    const publicList = await list(app, 'spam');
    expect(publicList.map((c) => c.content)).toEqual(['Lovely groove']);
    expect((await list(app, 'spam', members.vip)).map((c) => c.status)).toEqual(['approved']);
  });

  it('spamVerdict and assertMayPost are usable by other modules', async () => {
    const db = app.database.db;
    const fresh = await memberWithRole(app, 'dhr2');
    expect(await spamVerdict(db, fresh.user.id, 'Nice one')).toBe('approved');
    expect(await spamVerdict(db, fresh.user.id, 'see www.example.org')).toBe('pending');
    await expect(assertMayPost(db, members.free.user)).rejects.toMatchObject({ statusCode: 403, message: COMMENT_MESSAGES.subscriptionRequired });
    await expect(assertMayPost(db, bannedMember.user)).rejects.toMatchObject({ statusCode: 403, message: expect.stringContaining('banned') });
    await expect(assertMayPost(db, members.dhr1.user)).resolves.toMatchObject({ id: members.dhr1.user.id });
  });

  it('a ban that has ended lets the member post again; one still running does not', async () => {
    const ended = await banned(app, new Date(Date.now() - 1000));
    expect((await post(app, ended, { articleId: 'bans', content: 'Back again' })).statusCode).toBe(201);
    const running = await banned(app, new Date(Date.now() + DAY_MS));
    const res = await post(app, running, { articleId: 'bans', content: 'Still here?' });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toContain(COMMENT_MESSAGES.banned);
  });

  it('recent feeds: newest approved first, in the spec shape, bounded', async () => {
    const five = await get(app, '/api/comments/recent/5');
    expect(five.statusCode).toBe(200);
    const items = five.json<RecentComment[]>();
    expect(items).toHaveLength(5);
    expect(Object.keys(items[0] ?? {}).sort()).toEqual(['articleId', 'articleTitle', 'comment', 'createdAt', 'id', 'userName', 'userTier']);
    expect(items.map((i) => i.createdAt)).toEqual([...items.map((i) => i.createdAt)].sort().reverse());
    expect(five.body).not.toContain('https://cheap.example');
    expect((await get(app, '/api/comments/recent')).json<RecentComment[]>().length).toBeGreaterThan(5);
    expect((await get(app, '/api/comments/recent/0')).statusCode).toBe(400);
    expect((await get(app, '/api/comments/recent/51')).statusCode).toBe(400);
  });

  it('the cached list follows a change announced by another instance (NOTIFY)', async () => {
    expect(await list(app, 'cached')).toEqual([]);
    // Another instance writes straight to the shared database, then announces it.
    await app.database.db.insert(comments).values({
      discussionId: 'cached',
      userId: members.vip.user.id,
      authorName: 'elsewhere',
      authorTier: 'vip',
      content: 'From instance B',
      status: 'approved',
    });
    expect(await list(app, 'cached')).toEqual([]); // still the cached answer
    await app.database.notify(COMMENTS_CHANNEL, 'cached');
    await new Promise((r) => setTimeout(r, 50));
    expect((await list(app, 'cached')).map((c) => c.content)).toEqual(['From instance B']);
  });
});

describe('comments: reports, moderation and bans', async () => {
  const app = await createTestApp();
  const author = await memberWithRole(app, 'dhr1');
  const admin = await memberWithRole(app, 'admin');
  // Reporters with standing (a fresh free account's report reaches the queue but hides nothing).
  const reporters = [await memberWithRole(app, 'dhr1'), await memberWithRole(app, 'dhr2'), await memberWithRole(app, 'vip')];

  /** A comment by `author`, whose burst allowance is reset first (this suite posts many). */
  async function newComment(content: string, discussion = 'moderation'): Promise<string> {
    await app.database.db
      .update(comments)
      .set({ createdAt: new Date(Date.now() - DAY_MS) })
      .where(eq(comments.userId, author.user.id));
    const res = await post(app, author, { articleId: discussion, content });
    expect(res.statusCode).toBe(201);
    return res.json<{ comment: Comment }>().comment.id;
  }

  it('reports: signed-in only, a listed reason, never your own, once per member', async () => {
    const id = await newComment('Report rules');
    expect((await report(app, undefined, id)).statusCode).toBe(401);
    const own = await report(app, author, id);
    expect(own.statusCode).toBe(403);
    expect(own.json().message).toBe(COMMENT_MESSAGES.reportOwn);
    expect((await report(app, reporters[0], id, 'because')).statusCode).toBe(400);
    const first = await report(app, reporters[0], id);
    expect(first.statusCode).toBe(200);
    expect(first.json().message).toBe(COMMENT_MESSAGES.reported);
    const again = await report(app, reporters[0], id, 'harassment');
    expect(again.statusCode).toBe(409);
    const [row] = await app.database.db.select().from(comments).where(eq(comments.id, id));
    expect(row?.openReports).toBe(1);
    expect((await report(app, reporters[1], '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
  });

  it(`${COMMENT_HIDE_REPORTS} different reporters hide a comment until a moderator approves it`, async () => {
    const id = await newComment('Contested opinion');
    for (const [i, r] of reporters.slice(0, COMMENT_HIDE_REPORTS - 1).entries()) {
      await report(app, r, id, i === 0 ? 'spam' : 'harassment');
      expect((await list(app, 'moderation')).map((c) => c.id)).toContain(id);
    }
    // The same member twice does not count twice.
    await report(app, reporters[0], id);
    expect((await list(app, 'moderation')).map((c) => c.id)).toContain(id);
    await report(app, reporters[2], id, 'inappropriate');
    expect((await list(app, 'moderation')).map((c) => c.id)).not.toContain(id);
    expect((await get(app, '/api/comments/recent/50')).json<RecentComment[]>().map((c) => c.id)).not.toContain(id);

    const queue = await moderate(app, admin, 'GET', '/api/admin/comments/reported');
    const entry = queue.json<ModeratedComment[]>().find((c) => c.id === id);
    expect(entry).toMatchObject({ reportCount: 3, isReported: true, reportReason: 'inappropriate', userEmail: author.user.email });
    expect(entry?.reports.map((r) => r.reason)).toEqual(['spam', 'harassment', 'inappropriate']);

    const ok = await moderate(app, admin, 'PATCH', `/api/admin/comments/${id}/approve`, { moderatorId: author.user.id, moderatorUsername: 'someone else' });
    expect(ok.json().message).toBe(MODERATION_MESSAGES.approved);
    const back = (await list(app, 'moderation')).find((c) => c.id === id);
    expect(back).toMatchObject({ moderatorUsername: admin.user.username });
    expect(back?.moderatedAt).toBeTruthy();
    expect((await moderate(app, admin, 'GET', '/api/admin/comments/reported')).json<ModeratedComment[]>().map((c) => c.id)).not.toContain(id);
  });

  it('pending queue: approve publishes, reject hides, delete removes; every action is logged', async () => {
    const pendingId = await newComment('Check https://my.site', 'queue');
    const pending = (await moderate(app, admin, 'GET', '/api/admin/comments/pending')).json<ModeratedComment[]>();
    expect(pending.map((c) => c.id)).toContain(pendingId);
    const approved = await moderate(app, admin, 'PATCH', `/api/admin/comments/${pendingId}/approve`);
    expect(approved.json().message).toBe(MODERATION_MESSAGES.approved);
    expect((await list(app, 'queue')).map((c) => c.id)).toEqual([pendingId]);

    const rejected = await moderate(app, admin, 'PATCH', `/api/admin/comments/${pendingId}/reject`);
    expect(rejected.json().message).toBe(MODERATION_MESSAGES.rejected);
    expect(await list(app, 'queue')).toEqual([]);

    const del = await moderate(app, admin, 'DELETE', `/api/admin/comments/${pendingId}/permanent`);
    expect(del.json().message).toBe(MODERATION_MESSAGES.deleted);
    expect(await app.database.db.select().from(comments).where(eq(comments.id, pendingId))).toEqual([]);
    expect((await moderate(app, admin, 'DELETE', `/api/admin/comments/${pendingId}/permanent`)).statusCode).toBe(404);

    const log = await app.database.db.select().from(moderationLog).where(eq(moderationLog.commentId, pendingId));
    expect(log.map((l) => l.action).sort()).toEqual(['approve', 'delete', 'reject']);
    expect(log.every((l) => l.moderatorId === admin.user.id)).toBe(true);
    const shown = (await moderate(app, admin, 'GET', '/api/admin/comments/log')).json<{ action: string; moderatorUsername: string }[]>();
    expect(shown[0]).toMatchObject({ action: 'delete', moderatorUsername: admin.user.username });
  });

  it('bans: reason required, end optional and in the future, the member cannot post, the log records it', async () => {
    const target = await memberWithRole(app, 'vip');
    const url = `/api/admin/users/${target.user.id}/ban-comments`;
    const noReason = await moderate(app, admin, 'POST', url, { reason: '  ' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().message).toBe(MODERATION_MESSAGES.banReasonRequired);
    expect((await moderate(app, admin, 'POST', url, { reason: 'spam', expiresAt: new Date(Date.now() - DAY_MS).toISOString() })).statusCode).toBe(400);
    expect((await moderate(app, admin, 'POST', `/api/admin/users/${admin.user.id}/ban-comments`, { reason: 'me' })).statusCode).toBe(400);
    expect((await moderate(app, admin, 'POST', '/api/admin/users/00000000-0000-4000-8000-000000000000/ban-comments', { reason: 'x' })).statusCode).toBe(404);
    expect(await app.database.db.select().from(commentBans).where(eq(commentBans.userId, target.user.id))).toEqual([]);

    const ok = await moderate(app, admin, 'POST', url, { reason: 'Repeated spam', expiresAt: new Date(Date.now() + 7 * DAY_MS).toISOString() });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().message).toBe(MODERATION_MESSAGES.banned(target.user.username));
    const refused = await post(app, target, { articleId: 'moderation', content: 'Can I still post?' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toMatch(/banned.*Repeated spam/);
    // A permanent ban replaces the first.
    await moderate(app, admin, 'POST', url, { reason: 'For good' });
    const [ban] = await app.database.db.select().from(commentBans).where(eq(commentBans.userId, target.user.id));
    expect(ban).toMatchObject({ reason: 'For good', expiresAt: null });
    const log = await app.database.db.select().from(moderationLog).where(eq(moderationLog.targetUserId, target.user.id));
    expect(log.map((l) => l.action)).toEqual(['ban', 'ban']);
  });

  it('role matrix of the moderation routes: only admins', async () => {
    const id = await newComment('Matrix target');
    const others: [string, Who, number][] = [
      ['anonymous', undefined, 401],
      ['free', reporters[0], 403],
      ['dhr2', reporters[1], 403],
      ['vip', reporters[2], 403],
      ['dhr1 author', author, 403],
    ];
    const calls: ['GET' | 'PATCH' | 'DELETE' | 'POST', string, object?][] = [
      ['GET', '/api/admin/comments/reported'],
      ['GET', '/api/admin/comments/pending'],
      ['GET', '/api/admin/comments/log'],
      ['PATCH', `/api/admin/comments/${id}/approve`],
      ['PATCH', `/api/admin/comments/${id}/reject`],
      ['DELETE', `/api/admin/comments/${id}/permanent`],
      ['POST', `/api/admin/users/${author.user.id}/ban-comments`, { reason: 'nope' }],
    ];
    for (const [who, member, status] of others) {
      for (const [method, url, body] of calls) {
        expect((await moderate(app, member, method, url, body)).statusCode, `${who} ${method} ${url}`).toBe(status);
      }
    }
    const [row] = await app.database.db.select().from(comments).where(eq(comments.id, id));
    expect(row).toMatchObject({ status: 'approved', moderatedAt: null });
    expect(await app.database.db.select().from(commentBans).where(eq(commentBans.userId, author.user.id))).toEqual([]);
  });

  it('posting is rate-limited per member, whatever the address', async () => {
    const busy = await memberWithRole(app, 'vip');
    const codes: number[] = [];
    for (let i = 0; i < 11; i++) codes.push((await post(app, busy, { articleId: `rate-${i}`, content: `Message number ${i}` })).statusCode);
    expect(codes.slice(0, 10).every((c) => c === 201)).toBe(true);
    expect(codes[10]).toBe(429);
  });
});

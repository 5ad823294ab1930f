import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES } from '../../src/contracts/account';
import { AUTH_MESSAGES } from '../../src/contracts/auth';
import { DELETED_MEMBER_NAME } from '../../src/contracts/community';
import { DAY_MS, HOUR_MS } from '../../src/contracts/time';
import {
  accountDeletions,
  authTokens,
  chatMessages,
  comments,
  follows,
  forumPosts,
  liveActivity,
  liveSessions,
  memberProfiles,
  mixStreamVolume,
  platformLinks,
  platformSubscriptions,
  sessions,
  streamConnections,
  users,
} from '../../src/server/db/schema';
import { hashPassword } from '../../src/server/modules/auth/passwords';
import { runPrivacyRetention } from '../../src/server/modules/account/privacy-retention';
import { createTestApp, createMember, type TestMember } from '../support/app';
import { freshEmail, freshIp } from '../support/auth-client';
import { lastMailTo, linkIn, readOutbox, tempDataDir, tokenIn } from '../support/outbox';

describe("members' own data: export, deletion, email change, retention", async () => {
  const dataDir = tempDataDir();
  const app = await createTestApp({ DATA_DIR: dataDir });
  const { db } = app.database;
  const PASSWORD = 'deep-house-1';

  async function send(method: 'GET' | 'POST' | 'DELETE', url: string, cookie?: string, payload?: object) {
    const res = await app.inject({
      method,
      url,
      remoteAddress: freshIp(),
      headers: cookie ? { cookie } : {},
      ...(payload ? { payload } : {}),
    });
    await app.mailer.idle();
    return res;
  }

  /** A member with a password, a comment, a thread, a profile, follows both ways and a platform link. */
  async function populated(): Promise<{ m: TestMember; other: TestMember; commentId: string; threadId: string }> {
    const m = await createMember(app, { passwordHash: await hashPassword(PASSWORD), firstName: 'Ada' });
    const other = await createMember(app);
    const [c] = await db
      .insert(comments)
      .values({ discussionId: 'homepage', userId: m.user.id, authorName: m.user.username, authorTier: 'free', content: 'mine, deep', status: 'approved' })
      .returning();
    await db.insert(comments).values({
      discussionId: 'homepage',
      userId: other.user.id,
      authorName: other.user.username,
      authorTier: 'free',
      content: 'not theirs',
      status: 'approved',
    });
    const [t] = await db.insert(forumPosts).values({ userId: m.user.id, category: 'discussion', title: 'My thread', body: 'about house' }).returning();
    await db.insert(memberProfiles).values({ userId: m.user.id, bio: 'my bio' });
    await db.insert(follows).values([
      { followerId: m.user.id, followeeId: other.user.id },
      { followerId: other.user.id, followeeId: m.user.id },
    ]);
    await db.insert(platformLinks).values({ platform: 'patreon', kind: 'email', key: `payer-${m.user.id}@example.test`, userId: m.user.id, via: 'admin' });
    await db
      .insert(platformSubscriptions)
      .values({ platform: 'patreon', email: `payer-${m.user.id}@example.test`, amountCents: 500, platformStatus: 'active_patron', lastEvent: 'sync' });
    await db
      .insert(authTokens)
      .values({ kind: 'login_link', email: m.user.email, userId: m.user.id, tokenHash: `hash-${m.user.id}`, expiresAt: new Date(Date.now() + HOUR_MS) });
    await db.insert(chatMessages).values([
      { channel: 'dhr1', userId: m.user.id, authorName: m.user.username, authorTier: 'dhr1', text: 'hello from the chat', status: 'shown' },
      { channel: 'dhr1', userId: other.user.id, authorName: other.user.username, authorTier: 'dhr1', text: 'someone else talking', status: 'shown' },
    ]);
    await db.insert(streamConnections).values({
      userId: m.user.id,
      mount: '/dhr1',
      icecast: 'radio:8000',
      clientId: `c-${m.user.id}`,
      network: '198.51.100.0/24',
      userAgent: 'VLC/3.0.20',
    });
    if (!c || !t) throw new Error('insert failed');
    return { m, other, commentId: c.id, threadId: t.id };
  }

  describe('GET /api/me/export', () => {
    it("is a download of the caller's data, nobody else's, without secrets", async () => {
      const { m, other } = await populated();
      const res = await send('GET', '/api/me/export', m.cookie);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename="dhr-my-data-\d{4}-\d{2}-\d{2}\.json"$/);
      expect(res.headers['cache-control']).toContain('no-store');
      const data = res.json();
      expect(data.account).toMatchObject({ id: m.user.id, email: m.user.email, firstName: 'Ada', hasPassword: true });
      expect(data.comments.map((c: { content: string }) => c.content)).toEqual(['mine, deep']);
      expect(data.forumPosts.map((p: { title: string }) => p.title)).toEqual(['My thread']);
      expect(data.profile.bio).toBe('my bio');
      expect(data.follows.following).toEqual([expect.objectContaining({ memberId: other.user.id })]);
      expect(data.follows.followers).toEqual([expect.objectContaining({ memberId: other.user.id })]);
      expect(data.platformLinks).toEqual([expect.objectContaining({ platform: 'patreon', key: `payer-${m.user.id}@example.test` })]);
      expect(data.platformRecords).toEqual([expect.objectContaining({ email: `payer-${m.user.id}@example.test`, amountCents: 500 })]);
      expect(data.chatMessages).toEqual([expect.objectContaining({ channel: 'dhr1', text: 'hello from the chat', status: 'shown' })]);
      expect(data.streamConnections).toEqual([expect.objectContaining({ mount: '/dhr1', network: '198.51.100.0/24', userAgent: 'VLC/3.0.20', endedAt: null })]);
      expect(data.sessions.length).toBeGreaterThanOrEqual(1);
      const [row] = await db.select().from(users).where(eq(users.id, m.user.id));
      expect(res.body).not.toContain(row?.passwordHash ?? 'no-hash');
      expect(res.body).not.toContain(`hash-${m.user.id}`);
      expect(res.body).not.toMatch(/password_?hash|tokenHash|idHash/i);
      expect(res.body).not.toContain(other.user.email);
      expect(res.body).not.toContain('not theirs');
    });

    it('refuses a visitor', async () => {
      expect((await send('GET', '/api/me/export')).statusCode).toBe(401);
    });
  });

  describe('DELETE /api/me', () => {
    it('refuses a wrong password and changes nothing', async () => {
      const { m } = await populated();
      const res = await send('DELETE', '/api/me', m.cookie, { password: 'not-the-password' });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toBe(ACCOUNT_MESSAGES.wrongPassword);
      expect(await db.select().from(users).where(eq(users.id, m.user.id))).toHaveLength(1);
      expect(await db.select().from(comments).where(eq(comments.userId, m.user.id))).toHaveLength(1);
      expect((await send('GET', '/api/auth/me', m.cookie)).statusCode).toBe(200);
      const none = await send('DELETE', '/api/me', m.cookie, {});
      expect(none.statusCode).toBe(400);
      expect(none.json().error.message).toBe(ACCOUNT_MESSAGES.confirmationRequired);
    });

    it('with the password: personal data goes, comments and threads show "Deleted member", sessions end, an audit line without the email stays', async () => {
      const { m, other, commentId, threadId } = await populated();
      const second = await createMember(app);
      await db.insert(sessions).values({ idHash: `other-session-${m.user.id}`, userId: m.user.id, expiresAt: new Date(Date.now() + DAY_MS) });
      const res = await send('DELETE', '/api/me', m.cookie, { password: PASSWORD });
      expect(res.statusCode).toBe(200);
      expect(res.json().message).toBe(ACCOUNT_MESSAGES.accountDeleted);

      expect(await db.select().from(users).where(eq(users.id, m.user.id))).toHaveLength(0);
      expect(await db.select().from(sessions).where(eq(sessions.userId, m.user.id))).toHaveLength(0);
      expect(await db.select().from(memberProfiles).where(eq(memberProfiles.userId, m.user.id))).toHaveLength(0);
      expect(await db.select().from(follows).where(eq(follows.followeeId, m.user.id))).toHaveLength(0);
      expect(await db.select().from(follows).where(eq(follows.followerId, m.user.id))).toHaveLength(0);
      expect(await db.select().from(authTokens).where(eq(authTokens.email, m.user.email))).toHaveLength(0);
      expect(await db.select().from(platformLinks).where(eq(platformLinks.userId, m.user.id))).toHaveLength(0);
      // The platform's record of the payer stays, feeding nobody.
      expect(
        await db
          .select()
          .from(platformSubscriptions)
          .where(eq(platformSubscriptions.email, `payer-${m.user.id}@example.test`)),
      ).toHaveLength(1);
      // The session the request came with is over.
      expect((await send('GET', '/api/auth/me', m.cookie)).statusCode).toBe(401);

      const [c] = await db.select().from(comments).where(eq(comments.id, commentId));
      expect(c).toMatchObject({ userId: null, authorName: DELETED_MEMBER_NAME });
      // Chat messages stay until they expire, no longer under the member's name.
      const chat = await db.select().from(chatMessages).where(eq(chatMessages.text, 'hello from the chat'));
      expect(chat.find((x) => x.authorName === m.user.username)).toBeUndefined();
      expect(chat.some((x) => x.authorName === DELETED_MEMBER_NAME && x.userId === null)).toBe(true);
      const list = await send('GET', '/api/comments/homepage');
      const shown = list.json().find((x: { id: string }) => x.id === commentId);
      expect(shown).toMatchObject({ userName: DELETED_MEMBER_NAME, userId: null });
      expect(list.body).not.toContain(m.user.username);
      const thread = await send('GET', `/api/forum/posts/${threadId}`, second.cookie);
      if (thread.statusCode === 200) expect(thread.body).toContain(DELETED_MEMBER_NAME);
      const threads = await send('GET', '/api/forum/posts', second.cookie);
      expect(threads.body).toContain('My thread');
      expect(threads.body).not.toContain(m.user.username);

      const audits = await db.select().from(accountDeletions);
      const dump = JSON.stringify(audits);
      expect(audits.some((a) => a.cause === 'member_password')).toBe(true);
      expect(dump).not.toContain(m.user.email);
      expect(dump).not.toContain(m.user.id);
      expect(dump).not.toContain(m.user.username);
      // The other member is untouched.
      expect(await db.select().from(users).where(eq(users.id, other.user.id))).toHaveLength(1);
    });

    it('by an emailed link, for an account without a password; the link is single-use and only for its member', async () => {
      const m = await createMember(app);
      const stranger = await createMember(app);
      const asked = await send('POST', '/api/me/delete-link', m.cookie);
      expect(asked.statusCode).toBe(200);
      const url = linkIn(lastMailTo(dataDir, m.user.email), '/account/delete');
      expect(new URL(url).search).toBe('');
      const token = tokenIn(url);
      const wrongMember = await send('DELETE', '/api/me', stranger.cookie, { token });
      expect(wrongMember.statusCode).toBe(400);
      expect(await db.select().from(users).where(eq(users.id, stranger.user.id))).toHaveLength(1);
      // The stranger's try used the link up: a new one is needed.
      const again = await send('POST', '/api/me/delete-link', m.cookie);
      expect(again.statusCode).toBe(200);
      const token2 = tokenIn(linkIn(lastMailTo(dataDir, m.user.email), '/account/delete'));
      const res = await send('DELETE', '/api/me', m.cookie, { token: token2 });
      expect(res.statusCode).toBe(200);
      expect(await db.select().from(users).where(eq(users.id, m.user.id))).toHaveLength(0);
      expect((await db.select().from(accountDeletions)).some((a) => a.cause === 'member_link')).toBe(true);
    });

    it('refuses the last admin', async () => {
      await db.update(users).set({ isAdmin: false }).where(eq(users.isAdmin, true));
      const admin = await createMember(app, { isAdmin: true, passwordHash: await hashPassword(PASSWORD) });
      const res = await send('DELETE', '/api/me', admin.cookie, { password: PASSWORD });
      expect(res.statusCode).toBe(409);
      expect(res.json().error.message).toBe(AUTH_MESSAGES.lastAdmin);
      expect(await db.select().from(users).where(eq(users.id, admin.user.id))).toHaveLength(1);
      await createMember(app, { isAdmin: true });
      expect((await send('DELETE', '/api/me', admin.cookie, { password: PASSWORD })).statusCode).toBe(200);
    });
  });

  describe('POST /api/me/email and /api/me/email/confirm', () => {
    it('changes the email only once the new address confirms; the old one gets a notice', async () => {
      const m = await createMember(app, { passwordHash: await hashPassword(PASSWORD) });
      const newEmail = freshEmail('moved');
      const wrong = await send('POST', '/api/me/email', m.cookie, { newEmail, password: 'nope-nope' });
      expect(wrong.statusCode).toBe(400);
      expect(readOutbox(dataDir).filter((x) => x.to.includes(newEmail))).toHaveLength(0);

      const res = await send('POST', '/api/me/email', m.cookie, { newEmail: newEmail.toUpperCase(), password: PASSWORD });
      expect(res.statusCode).toBe(200);
      expect(res.json().message).toBe(ACCOUNT_MESSAGES.emailChangeSent);
      const [before] = await db.select().from(users).where(eq(users.id, m.user.id));
      expect(before?.email).toBe(m.user.email);

      const token = tokenIn(linkIn(lastMailTo(dataDir, newEmail), '/account/email'));
      const confirm = await send('POST', '/api/me/email/confirm', undefined, { token });
      expect(confirm.statusCode).toBe(200);
      const [after] = await db.select().from(users).where(eq(users.id, m.user.id));
      expect(after?.email).toBe(newEmail);
      expect(lastMailTo(dataDir, m.user.email).subject).toBe('Your Deep House Radio email was changed');
      expect((await send('POST', '/api/me/email/confirm', undefined, { token })).statusCode).toBe(400);
    });

    it('refuses an address another account uses, with the registration message', async () => {
      const m = await createMember(app);
      const taken = await createMember(app);
      const res = await send('POST', '/api/me/email', m.cookie, { newEmail: taken.user.email });
      expect(res.statusCode).toBe(409);
      expect(res.json().error.message).toBe(AUTH_MESSAGES.emailTaken);

      // Taken between the request and the confirmation: refused then too.
      const later = freshEmail('later');
      expect((await send('POST', '/api/me/email', m.cookie, { newEmail: later })).statusCode).toBe(200);
      const token = tokenIn(linkIn(lastMailTo(dataDir, later), '/account/email'));
      await createMember(app, { email: later });
      const confirm = await send('POST', '/api/me/email/confirm', undefined, { token });
      expect(confirm.statusCode).toBe(409);
      const [row] = await db.select().from(users).where(eq(users.id, m.user.id));
      expect(row?.email).toBe(m.user.email);
    });
  });

  describe('the privacy retention job', () => {
    it('truncates full addresses older than a day and removes old live-monitor rows', async () => {
      const m = await createMember(app);
      const old = new Date(Date.now() - 2 * DAY_MS);
      await db.insert(sessions).values([
        { idHash: `v4-${m.user.id}`, userId: m.user.id, expiresAt: new Date(Date.now() + DAY_MS), createdAt: old, ip: '203.0.113.77' },
        { idHash: `v6-${m.user.id}`, userId: m.user.id, expiresAt: new Date(Date.now() + DAY_MS), createdAt: old, ip: '2001:db8:abcd:12:1:2:3:4' },
        { idHash: `new-${m.user.id}`, userId: m.user.id, expiresAt: new Date(Date.now() + DAY_MS), ip: '198.51.100.9' },
      ]);
      const longAgo = new Date(Date.now() - 31 * DAY_MS);
      await db
        .insert(liveSessions)
        .values({ id: `m:${m.user.id}`, userId: m.user.id, currentPage: '/', startedAt: longAgo, lastSeenAt: longAgo, pageChangedAt: longAgo });
      await db.insert(liveActivity).values({ userId: m.user.id, action: 'view', page: '/', at: longAgo });

      await runPrivacyRetention(db);

      const ips = new Map((await db.select().from(sessions).where(eq(sessions.userId, m.user.id))).map((s) => [s.idHash, s.ip]));
      expect(ips.get(`v4-${m.user.id}`)).toBe('203.0.113.0');
      expect(ips.get(`v6-${m.user.id}`)).toBe('2001:db8:abcd::');
      expect(ips.get(`new-${m.user.id}`)).toBe('198.51.100.9');
      expect(await db.select().from(liveSessions).where(eq(liveSessions.userId, m.user.id))).toHaveLength(0);
      expect(await db.select().from(liveActivity).where(eq(liveActivity.userId, m.user.id))).toHaveLength(0);
      // Every stored address older than a day is a network now.
      const full = await db.execute(sql`select ip from sessions where created_at < now() - interval '1 day' and ip ~ '[.][1-9][0-9]*$'`);
      expect((Array.isArray(full) ? full : ((full as { rows?: unknown[] }).rows ?? [])).length).toBe(0);
    });

    it('removes stream connections 30 days after they end and daily streaming volumes after two days', async () => {
      const m = await createMember(app);
      const base = { userId: m.user.id, mount: '/dhr1', icecast: 'radio:8000', network: '198.51.100.0/24', userAgent: 'VLC' };
      await db.insert(streamConnections).values([
        { ...base, clientId: `old-${m.user.id}`, startedAt: new Date(Date.now() - 40 * DAY_MS), endedAt: new Date(Date.now() - 31 * DAY_MS) },
        { ...base, clientId: `recent-${m.user.id}`, startedAt: new Date(Date.now() - 5 * DAY_MS), endedAt: new Date(Date.now() - 4 * DAY_MS) },
        { ...base, clientId: `open-${m.user.id}`, startedAt: new Date(Date.now() - 40 * DAY_MS) },
      ]);
      await db.insert(mixStreamVolume).values([
        { userId: m.user.id, day: new Date(Date.now() - 3 * DAY_MS), bytes: 10 },
        { userId: m.user.id, day: new Date(Date.now() - HOUR_MS), bytes: 20 },
      ]);
      await runPrivacyRetention(db);
      const left = await db.select().from(streamConnections).where(eq(streamConnections.userId, m.user.id));
      expect(left.map((c) => c.clientId).sort()).toEqual([`open-${m.user.id}`, `recent-${m.user.id}`]);
      const volumes = await db.select().from(mixStreamVolume).where(eq(mixStreamVolume.userId, m.user.id));
      expect(volumes.map((v) => v.bytes)).toEqual([20]);
    });
  });
});

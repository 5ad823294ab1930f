import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { AdminStats } from '../../src/contracts/admin';
import { COMMENT_MESSAGES, HOLD_REASONS, MODERATION_MESSAGES, type CommentBan, type ModerationQueue } from '../../src/contracts/community';
import { DAY_MS } from '../../src/contracts/time';
import { FREE_CHAT, FREE_CHAT_NAME } from '../../src/contracts/chat-values';
import { channels, chatMessages, commentBans, comments, contactMessages, djSubmissions, forumPosts, moderationLog } from '../../src/server/db/schema';
import { linkIdentity } from '../../src/server/modules/platforms/links-repository';
import { upsertPlatformRecords } from '../../src/server/modules/platforms/platforms-repository';
import { createMember, createTestApp, memberWithRole, type TestMember } from '../support/app';
import { freshIp } from '../support/auth-client';
import { codeIn, lastMailTo, tempDataDir } from '../support/outbox';
import { SUPPORTER_MESSAGES } from '../../src/contracts/supporters';

/** A Buy Me a Coffee payer record without its email. */
const bmcFields = {
  platform: 'buymeacoffee' as const,
  platformUserId: null,
  fullName: 'Same Person',
  platformStatus: 'active',
  amountCents: 500,
  lastChargeAt: null,
  nextChargeAt: null,
  lastChargeStatus: null,
  periodEndAt: new Date(Date.now() + 20 * DAY_MS),
  isCancelled: false,
  cancelledAtPeriodEnd: false,
  cancelledAt: null,
  raw: {},
};

type Who = TestMember | undefined;

const call = (app: FastifyInstance, who: Who, method: 'GET' | 'POST' | 'DELETE' | 'PATCH', url: string, payload?: object) =>
  app.inject({ method, url, remoteAddress: freshIp(), ...(payload ? { payload } : {}), headers: who ? { cookie: who.cookie } : {} });

const comment = (app: FastifyInstance, who: TestMember, content: string) => call(app, who, 'POST', '/api/comments', { articleId: 'homepage', content });
const chat = (app: FastifyInstance, who: TestMember, channel: string, text: string) => call(app, who, 'POST', `/api/chat/${channel}/messages`, { text });
const thread = (app: FastifyInstance, who: TestMember, title: string, body = 'Come and listen') =>
  call(app, who, 'POST', '/api/forum/posts', { title, body, category: 'discussion' });

describe('the moderation queue: held comments and held threads together', async () => {
  const app = await createTestApp();
  const admin = await memberWithRole(app, 'admin');
  const author = await memberWithRole(app, 'dhr1');
  const reporters = [await memberWithRole(app, 'vip'), await memberWithRole(app, 'dhr2')];

  it('lists a link-held comment, a reported comment and a link-held thread with why each is held, and the counts', async () => {
    const held = await comment(app, author, 'Grab my edits at www.example.com tonight');
    expect(held.statusCode).toBe(201);
    const published = await comment(app, author, 'A rolling bassline at two in the morning');
    const publishedId = published.json<{ comment: { id: string } }>().comment.id;
    for (const r of reporters) expect((await call(app, r, 'POST', `/api/comments/${publishedId}/report`, { reason: 'spam' })).statusCode).toBe(200);
    const heldThread = await thread(app, author, 'My new mix on www.mixes.example.com');
    expect(heldThread.json<{ status: string }>().status).toBe('pending');
    // Chat messages the link rule held, in the free chat and in a channel's chat.
    const [channel] = await app.database.db.select().from(channels).where(eq(channels.requiredTier, 'dhr1'));
    if (!channel) throw new Error('no DHR1 channel seeded');
    const freeChat = await chat(app, author, FREE_CHAT, 'tracklist at www.example.com');
    const channelChat = await chat(app, reporters[1] as TestMember, channel.id, 'my mix www.mixes.example.com/x');
    for (const r of [freeChat, channelChat]) expect(r.json<{ message: { held: boolean } }>().message.held, r.body).toBe(true);

    const res = await call(app, admin, 'GET', '/api/admin/moderation/queue');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toContain('no-store');
    const q = res.json<ModerationQueue>();
    expect(q.counts).toEqual({ comments: 2, threads: 1, chat: 2, reported: 1 });
    const byId = new Map(q.items.map((i) => [i.id, i]));
    expect(byId.get(held.json<{ comment: { id: string } }>().comment.id)).toMatchObject({
      kind: 'comment',
      excerpt: 'Grab my edits at www.example.com tonight',
      author: author.user.username,
      reason: HOLD_REASONS.link,
      reported: false,
    });
    expect(byId.get(publishedId)).toMatchObject({ kind: 'comment', reason: HOLD_REASONS.reported(2), reported: true });
    expect(byId.get(heldThread.json<{ id: string }>().id)).toMatchObject({
      kind: 'thread',
      title: 'My new mix on www.mixes.example.com',
      reason: HOLD_REASONS.link,
    });
    expect(byId.get(freeChat.json<{ message: { id: string } }>().message.id)).toMatchObject({
      kind: 'chat',
      channel: FREE_CHAT,
      channelName: FREE_CHAT_NAME,
      excerpt: 'tracklist at www.example.com',
      author: author.user.username,
      authorId: author.user.id,
      reason: HOLD_REASONS.link,
      reported: false,
    });
    expect(byId.get(channelChat.json<{ message: { id: string } }>().message.id)).toMatchObject({
      kind: 'chat',
      channel: channel.id,
      channelName: channel.name,
    });
  });

  it('empties as the admin decides each kind through the existing routes; the dashboard counts follow', async () => {
    const before = (await call(app, admin, 'GET', '/api/admin/moderation/queue')).json<ModerationQueue>();
    const stats = (await call(app, admin, 'GET', '/api/admin/stats')).json<AdminStats>();
    expect(stats.moderationPending).toBe(5);
    const chatItems = before.items.filter((i) => i.kind === 'chat');
    expect(chatItems).toHaveLength(2);
    for (const item of before.items) {
      const res =
        item.kind === 'thread'
          ? await call(app, admin, 'PATCH', `/api/admin/forum/posts/${item.id}/approve`)
          : item.kind === 'chat'
            ? item.channel === FREE_CHAT
              ? await call(app, admin, 'POST', `/api/admin/chat/messages/${item.id}/approve`)
              : await call(app, admin, 'DELETE', `/api/admin/chat/messages/${item.id}`)
            : await call(app, admin, 'PATCH', `/api/admin/comments/${item.id}/${item.reported ? 'reject' : 'approve'}`, {});
      expect(res.statusCode).toBe(200);
    }
    // The approved chat message is shown to everyone; the removed one is gone.
    const freeHistory = await call(app, undefined, 'GET', `/api/chat/${FREE_CHAT}/messages`);
    expect(freeHistory.json<{ messages: { text: string }[] }>().messages.map((m) => m.text)).toContain('tracklist at www.example.com');
    const stored = await app.database.db.select().from(chatMessages);
    expect(stored.map((m) => m.text).sort()).toEqual(['tracklist at www.example.com']);
    const after = (await call(app, admin, 'GET', '/api/admin/moderation/queue')).json<ModerationQueue>();
    expect(after).toEqual({ items: [], counts: { comments: 0, threads: 0, chat: 0, reported: 0 } });
    expect((await call(app, admin, 'GET', '/api/admin/stats')).json<AdminStats>().moderationPending).toBe(0);
  });

  it('dashboard: open contact messages and unreviewed submissions are counted', async () => {
    const db = app.database.db;
    await db.insert(contactMessages).values([
      { name: 'A', email: 'a@example.test', message: 'hello' },
      { name: 'B', email: 'b@example.test', message: 'hello', handledAt: new Date() },
    ]);
    const submission = { artistName: 'DJ', email: 'dj@example.test', mixTitle: 'Mix', genre: 'deep', description: 'x', wetransferLink: 'https://we.tl/x' };
    await db
      .insert(djSubmissions)
      .values([submission, { ...submission, status: 'new' }, { ...submission, status: 'accepted' }, { ...submission, status: 'listening' }]);
    const s = (await call(app, admin, 'GET', '/api/admin/stats')).json<AdminStats>();
    expect(s.contactUnhandled).toBe(1);
    expect(s.submissionsUnreviewed).toBe(2);
  });

  it('is admin only', async () => {
    expect((await call(app, undefined, 'GET', '/api/admin/moderation/queue')).statusCode).toBe(401);
    expect((await call(app, author, 'GET', '/api/admin/moderation/queue')).statusCode).toBe(403);
  });
});

describe('bans: listed and lifted', async () => {
  const app = await createTestApp();
  const db = app.database.db;
  const admin = await memberWithRole(app, 'admin');
  const member = await memberWithRole(app, 'dhr1');
  const temporary = await memberWithRole(app, 'dhr2');

  it('lists the bans in force with who banned and until when; an ended ban is not listed', async () => {
    expect((await call(app, admin, 'POST', `/api/admin/users/${member.user.id}/ban-comments`, { reason: 'Spamming links' })).statusCode).toBe(200);
    const until = new Date(Date.now() + 7 * DAY_MS).toISOString();
    expect((await call(app, admin, 'POST', `/api/admin/users/${temporary.user.id}/ban-comments`, { reason: 'Rude', expiresAt: until })).statusCode).toBe(200);
    const ended = await memberWithRole(app, 'vip');
    await db.insert(commentBans).values({ userId: ended.user.id, reason: 'old', expiresAt: new Date(Date.now() - DAY_MS), bannedBy: admin.user.id });

    const res = await call(app, admin, 'GET', '/api/admin/bans');
    expect(res.statusCode).toBe(200);
    const bans = res.json<CommentBan[]>();
    expect(bans.map((b) => b.userId).sort()).toEqual([member.user.id, temporary.user.id].sort());
    expect(bans.find((b) => b.userId === member.user.id)).toMatchObject({
      email: member.user.email,
      username: member.user.username,
      reason: 'Spamming links',
      until: null,
      bannedBy: admin.user.username,
    });
    expect(bans.find((b) => b.userId === temporary.user.id)?.until).toBe(until);
  });

  it('lifting: the member may comment again at once, and the lift is logged', async () => {
    expect((await comment(app, member, 'Still here?')).statusCode).toBe(403);
    const res = await call(app, admin, 'DELETE', `/api/admin/users/${member.user.id}/ban-comments`);
    expect(res.statusCode).toBe(200);
    expect(res.json<{ message: string }>().message).toBe(MODERATION_MESSAGES.lifted(member.user.username));
    expect((await comment(app, member, 'Back on the floor')).statusCode).toBe(201);
    expect(await db.select().from(commentBans).where(eq(commentBans.userId, member.user.id))).toHaveLength(0);
    const log = await db.select().from(moderationLog).where(eq(moderationLog.action, 'unban'));
    expect(log).toMatchObject([{ targetUserId: member.user.id, moderatorUsername: admin.user.username }]);
  });

  it('refuses: a member not banned 404 with the message, an unknown id 404, a malformed id 400, non-admins 401/403; nothing changes', async () => {
    const notBanned = await call(app, admin, 'DELETE', `/api/admin/users/${member.user.id}/ban-comments`);
    expect(notBanned.statusCode).toBe(404);
    expect(notBanned.json<{ error: { code: string; message: string } }>().error).toEqual({ code: 'not_banned', message: MODERATION_MESSAGES.notBanned });
    const unknown = await call(app, admin, 'DELETE', '/api/admin/users/00000000-0000-4000-8000-000000000000/ban-comments');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json<{ message: string }>().message).toBe(MODERATION_MESSAGES.memberNotFound);
    expect((await call(app, admin, 'DELETE', '/api/admin/users/not-a-uuid/ban-comments')).statusCode).toBe(400);
    expect((await call(app, undefined, 'DELETE', `/api/admin/users/${temporary.user.id}/ban-comments`)).statusCode).toBe(401);
    expect((await call(app, member, 'DELETE', `/api/admin/users/${temporary.user.id}/ban-comments`)).statusCode).toBe(403);
    expect((await call(app, member, 'GET', '/api/admin/bans')).statusCode).toBe(403);
    expect(await db.select().from(commentBans).where(eq(commentBans.userId, temporary.user.id))).toHaveLength(1);
  });
});

describe('a ban covers accounts sharing a platform identity', async () => {
  const app = await createTestApp();
  const db = app.database.db;
  const admin = await memberWithRole(app, 'admin');

  const bmcRecord = (email: string) => ({
    platform: 'buymeacoffee' as const,
    email,
    externalId: `sub-${email}`,
    platformUserId: null,
    fullName: 'Same Person',
    platformStatus: 'active',
    amountCents: 500,
    lastChargeAt: null,
    nextChargeAt: null,
    lastChargeStatus: null,
    periodEndAt: new Date(Date.now() + 20 * DAY_MS),
    isCancelled: false,
    cancelledAtPeriodEnd: false,
    cancelledAt: null,
    raw: {},
  });

  const refusedAsBanned = (res: { statusCode: number; json: <T>() => T }) => {
    expect(res.statusCode).toBe(403);
    const body = res.json<{ error: { code: string; message: string } }>();
    expect(body.error.code).toBe('banned');
    expect(body.error.message.startsWith(COMMENT_MESSAGES.banned)).toBe(true);
  };

  it('A pays on Buy Me a Coffee under their email; B links that payer email: B is refused on comments and the forum until A is unbanned', async () => {
    const a = await createMember(app, { subscriptionTier: 'dhr2', subscriptionStatus: 'active' });
    const b = await memberWithRole(app, 'dhr1');
    await upsertPlatformRecords(db, [bmcRecord(a.user.email)], 'sync');
    expect((await call(app, admin, 'POST', `/api/admin/users/${a.user.id}/ban-comments`, { reason: 'Abuse' })).statusCode).toBe(200);
    expect((await comment(app, b, 'Before the link')).statusCode).toBe(201);

    await linkIdentity(db, { platform: 'buymeacoffee', kind: 'email', key: a.user.email, userId: b.user.id, via: 'claim' });
    const commentsBefore = (await db.select().from(comments)).length;
    refusedAsBanned(await comment(app, b, 'Second account talking'));
    refusedAsBanned(await thread(app, b, 'Second account thread'));
    expect(await db.select().from(comments)).toHaveLength(commentsBefore);
    expect(await db.select().from(forumPosts)).toHaveLength(0);

    expect((await call(app, admin, 'DELETE', `/api/admin/users/${a.user.id}/ban-comments`)).statusCode).toBe(200);
    expect((await comment(app, b, 'Second account talking')).statusCode).toBe(201);
    expect((await thread(app, b, 'Second account thread')).statusCode).toBe(201);
  });

  it('A is linked to a payer email that is B’s account email: B is refused; an unrelated member is not', async () => {
    const b = await memberWithRole(app, 'dhr1');
    const a = await memberWithRole(app, 'vip');
    const stranger = await memberWithRole(app, 'dhr1');
    await linkIdentity(db, { platform: 'buymeacoffee', kind: 'email', key: b.user.email, userId: a.user.id, via: 'admin' });
    expect((await call(app, admin, 'POST', `/api/admin/users/${a.user.id}/ban-comments`, { reason: 'Abuse' })).statusCode).toBe(200);
    refusedAsBanned(await comment(app, b, 'Hello again'));
    expect((await comment(app, stranger, 'Hello from elsewhere')).statusCode).toBe(201);
  });

  it('Patreon: B’s record carries the Patreon user id A is linked to; B is refused', async () => {
    const a = await memberWithRole(app, 'vip');
    const b = await memberWithRole(app, 'dhr1');
    await linkIdentity(db, { platform: 'patreon', kind: 'user_id', key: 'patreon-user-77', userId: a.user.id, via: 'oauth' });
    await upsertPlatformRecords(
      db,
      [{ ...bmcRecord(b.user.email), platform: 'patreon', platformUserId: 'patreon-user-77', platformStatus: 'active_patron' }],
      'sync',
    );
    expect((await call(app, admin, 'POST', `/api/admin/users/${a.user.id}/ban-comments`, { reason: 'Abuse' })).statusCode).toBe(200);
    refusedAsBanned(await thread(app, b, 'A thread from B'));
  });
});

describe('a ban follows the payer: identities recorded when the ban is made', async () => {
  const dataDir = tempDataDir();
  const app = await createTestApp({ DATA_DIR: dataDir });
  const db = app.database.db;
  const admin = await memberWithRole(app, 'admin');

  it('A is banned while linked to a payer email, then drops it; a new account claims it with a code: banned too, and told so', async () => {
    const a = await memberWithRole(app, 'dhr2');
    const payer = `payer-${Date.now().toString(36)}@example.test`;
    await linkIdentity(db, { platform: 'buymeacoffee', kind: 'email', key: payer, userId: a.user.id, via: 'claim' });
    await upsertPlatformRecords(db, [{ ...bmcFields, email: payer, externalId: `sub-${payer}` }], 'sync');
    expect((await call(app, admin, 'POST', `/api/admin/users/${a.user.id}/ban-comments`, { reason: 'Abuse in the chat' })).statusCode).toBe(200);
    // A lets the payer email go: the accounts share nothing any more.
    expect((await call(app, a, 'POST', '/api/supporters/claims/remove', { email: payer })).statusCode).toBe(200);

    const c = await memberWithRole(app, 'dhr1');
    expect((await comment(app, c, 'Before the claim')).statusCode).toBe(201);
    expect((await call(app, c, 'POST', '/api/supporters/claims', { email: payer })).statusCode).toBe(200);
    await app.mailer.idle();
    const confirmed = await call(app, c, 'POST', '/api/supporters/claims/confirm', { email: payer, code: codeIn(lastMailTo(dataDir, payer)) });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json<{ message: string }>().message).toBe(`${SUPPORTER_MESSAGES.claimLinked} ${SUPPORTER_MESSAGES.linkedBanned('Abuse in the chat')}`);
    const before = (await db.select().from(comments)).length;
    const refused = await comment(app, c, 'Second account talking');
    expect(refused.statusCode).toBe(403);
    expect(refused.json<{ error: { code: string; message: string } }>().error).toMatchObject({ code: 'banned' });
    expect(refused.json<{ error: { message: string } }>().error.message).toContain('Abuse in the chat');
    expect(await db.select().from(comments)).toHaveLength(before);

    // Lifting A's ban lifts it on the identities too.
    expect((await call(app, admin, 'DELETE', `/api/admin/users/${a.user.id}/ban-comments`)).statusCode).toBe(200);
    expect((await comment(app, c, 'Second account talking')).statusCode).toBe(201);
  });

  it('a claim of an identity nobody banned says nothing of bans', async () => {
    const m = await memberWithRole(app, 'dhr1');
    const payer = `clean-${Date.now().toString(36)}@example.test`;
    await call(app, m, 'POST', '/api/supporters/claims', { email: payer });
    await app.mailer.idle();
    const confirmed = await call(app, m, 'POST', '/api/supporters/claims/confirm', { email: payer, code: codeIn(lastMailTo(dataDir, payer)) });
    expect(confirmed.json<{ message: string }>().message).toBe(SUPPORTER_MESSAGES.claimLinked);
  });
});

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_HISTORY, CHAT_MAX_LENGTH, CHAT_MESSAGES, type ChatEvent, type ChatHistory } from '../../src/contracts/chat';
import { DAY_MS } from '../../src/contracts/time';
import { MODERATION_MESSAGES } from '../../src/contracts/community-values';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { chatMembers, chatMessages } from '../../src/server/db/schema';
import { pruneChat } from '../../src/server/modules/chat/chat-service';
import { freshIp } from '../support/auth-client';
import { STREAM_MAX_LIFE_MS } from '../../src/server/modules/events/sse-hub';
import { createTestApp, memberWithRole, type TestMember } from '../support/app';

/** Collects the `chat` events of one /api/live/events stream. */
class ChatStream {
  readonly events: ChatEvent[] = [];
  /** The server ended the stream. */
  ended = false;
  private buffer = '';
  private req: http.ClientRequest | undefined;

  static async open(url: string, cookie?: string): Promise<ChatStream> {
    const s = new ChatStream();
    await new Promise<void>((resolve, reject) => {
      s.req = http.get(url, { headers: { accept: 'text/event-stream', ...(cookie ? { cookie } : {}) }, agent: false }, (res) => {
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => s.feed(chunk));
        res.on('end', () => (s.ended = true));
        resolve();
      });
      s.req.on('error', reject);
    });
    return s;
  }

  private feed(chunk: string) {
    this.buffer += chunk;
    let at: number;
    while ((at = this.buffer.indexOf('\n\n')) >= 0) {
      const block = this.buffer.slice(0, at);
      this.buffer = this.buffer.slice(at + 2);
      const lines = block.split('\n');
      if (!lines.includes('event: chat')) continue;
      const data = lines.find((l) => l.startsWith('data: '));
      if (data) this.events.push(JSON.parse(data.slice(6)) as ChatEvent);
    }
  }

  async waitFor(what: string, ok: () => boolean, ms = 5000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!ok()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; got ${JSON.stringify(this.events)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  texts(channel: string): string[] {
    return this.events.flatMap((e) => (e.kind === 'message' && e.channel === channel ? [e.message.text] : []));
  }

  close() {
    this.req?.destroy();
  }
}

const history = (app: FastifyInstance, channel: string, who?: TestMember) =>
  app.inject({ method: 'GET', url: `/api/chat/${channel}/messages`, headers: who ? { cookie: who.cookie } : {} });
const post = (app: FastifyInstance, channel: string, who: TestMember | undefined, text: string, extra: Record<string, unknown> = {}) =>
  app.inject({
    method: 'POST',
    url: `/api/chat/${channel}/messages`,
    headers: who ? { cookie: who.cookie } : {},
    payload: { text, ...extra },
    remoteAddress: freshIp(),
  });
const messagesOf = (app: FastifyInstance) => app.database.db.select().from(chatMessages);

describe('channel chat', async () => {
  const app = await createTestApp();
  const db = app.database.db;
  const [free, dhr1, dhr2, vip, admin, expired] = await Promise.all([
    memberWithRole(app, 'free'),
    memberWithRole(app, 'dhr1'),
    memberWithRole(app, 'dhr2'),
    memberWithRole(app, 'vip'),
    memberWithRole(app, 'admin'),
    memberWithRole(app, 'expired-vip'),
  ]);
  let sseUrl = '';
  beforeAll(async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    sseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/live/events`;
  });
  afterAll(() => app.modules.events.hub.closeAll());

  it('lets everyone read the free chat and only those who hear a channel read its chat', async () => {
    const read = async (channel: string, who?: TestMember) => (await history(app, channel, who)).statusCode;
    expect(await read('free')).toBe(200);
    expect(await read('free', free)).toBe(200);
    expect([await read('dhr1'), await read('dhr1', free), await read('dhr1', expired)]).toEqual([401, 403, 403]);
    expect([await read('dhr1', dhr1), await read('dhr1', dhr2), await read('dhr1', vip), await read('dhr1', admin)]).toEqual([200, 200, 200, 200]);
    expect([await read('dhr2', dhr1), await read('dhr2', dhr2), await read('dhr2', vip), await read('dhr2', admin)]).toEqual([403, 200, 200, 200]);
    const refused = await history(app, 'dhr2', dhr1);
    expect(refused.json()).toMatchObject({ error: { code: 'chat_no_access', message: CHAT_MESSAGES.noAccess } });
    const unknown = await history(app, 'dhr9', admin);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toBe(CHAT_MESSAGES.unknownChat);
    const h = (await history(app, 'free', dhr1)).json() as ChatHistory;
    expect(h).toMatchObject({ canPost: true, canModerate: false, mutedUntil: null });
    expect((await history(app, 'free', free)).json()).toMatchObject({ canPost: false, canModerate: false });
    expect((await history(app, 'free')).json()).toMatchObject({ canPost: false });
    expect((await history(app, 'free', admin)).json()).toMatchObject({ canPost: true, canModerate: true });
    expect((await history(app, 'free', dhr1)).headers['cache-control']).toContain('no-store');
  });

  it('lets DHR1 members and up post, with the supporter badge from DHR2, identity from the session', async () => {
    const before = (await messagesOf(app)).length;
    const anon = await post(app, 'free', undefined, 'hi');
    expect(anon.statusCode).toBe(401);
    const freeRes = await post(app, 'free', free, 'hello from free');
    expect(freeRes.statusCode).toBe(403);
    expect(freeRes.json()).toMatchObject({ error: { code: 'chat_tier_required', message: CHAT_MESSAGES.tierRequired } });
    expect((await post(app, 'free', expired, 'expired hello')).statusCode).toBe(403);
    expect((await post(app, 'dhr2', dhr1, 'not my channel')).statusCode).toBe(403);
    expect((await messagesOf(app)).length).toBe(before);

    const a = await post(app, 'free', dhr1, '  first from dhr1  ', { authorName: 'someone else', authorTier: 'vip', supporter: true });
    expect(a.statusCode).toBe(201);
    expect(a.json().message).toMatchObject({
      text: 'first from dhr1',
      authorName: dhr1.user.username,
      authorTier: 'dhr1',
      supporter: false,
      userId: dhr1.user.id,
      held: false,
    });
    const b = await post(app, 'dhr2', dhr2, 'dhr2 here');
    expect(b.json().message).toMatchObject({ authorTier: 'dhr2', supporter: true });
    expect((await post(app, 'dhr1', vip, 'vip here')).json().message).toMatchObject({ authorTier: 'vip', supporter: true });
    expect((await post(app, 'dhr1', admin, 'admin here')).json().message).toMatchObject({ authorIsAdmin: true, supporter: false });
    const list = (await history(app, 'free')).json() as ChatHistory;
    expect(list.messages.map((m) => m.text)).toContain('first from dhr1');
    expect(list.messages.every((m) => m.channel === 'free')).toBe(true);
  });

  it('holds DHR1 to one message per slow-mode period; DHR2 and up skip it', async () => {
    const m = await memberWithRole(app, 'dhr1');
    expect((await post(app, 'free', m, 'one')).statusCode).toBe(201);
    const second = await post(app, 'free', m, 'two');
    expect(second.statusCode).toBe(429);
    expect(second.json().error.code).toBe('slow_mode');
    expect(second.json().error.message).toMatch(/^Slow mode: you can send another message in \d+ s\.$/);
    expect(Number(second.headers['retry-after'])).toBeGreaterThan(0);
    // Once the period has passed, the member posts again.
    await db
      .update(chatMembers)
      .set({ lastPostAt: new Date(Date.now() - 11_000) })
      .where(eq(chatMembers.userId, m.user.id));
    expect((await post(app, 'free', m, 'three')).statusCode).toBe(201);

    // Two posts racing: one gets through.
    const racer = await memberWithRole(app, 'dhr1');
    const statuses = (await Promise.all([post(app, 'free', racer, 'race a'), post(app, 'free', racer, 'race b')])).map((r) => r.statusCode).sort();
    expect(statuses).toEqual([201, 429]);
    // The refused post stored nothing: the message and the slow-mode slot are one statement.
    expect(await db.select().from(chatMessages).where(eq(chatMessages.userId, racer.user.id))).toHaveLength(1);

    const fast = await memberWithRole(app, 'dhr2');
    for (const t of ['quick one', 'quick two', 'quick three']) expect((await post(app, 'free', fast, t)).statusCode).toBe(201);
  });

  it('applies the text rules, holds links and repeats for a moderator, and limits each member', async () => {
    const m = await memberWithRole(app, 'dhr2');
    const before = (await messagesOf(app)).length;
    expect((await post(app, 'free', m, '   ')).json()).toMatchObject({ error: { code: 'message_empty', message: CHAT_MESSAGES.empty } });
    expect((await post(app, 'free', m, 'x'.repeat(CHAT_MAX_LENGTH + 1))).json()).toMatchObject({ error: { message: CHAT_MESSAGES.tooLong } });
    expect((await post(app, 'free', m, 'bell\u0007')).json().error.code).toBe('validation_error');
    expect((await messagesOf(app)).length).toBe(before);
    expect((await post(app, 'free', m, 'é'.repeat(CHAT_MAX_LENGTH))).statusCode).toBe(201);

    const link = await post(app, 'free', m, 'listen at www.example.com');
    expect(link.statusCode).toBe(201);
    expect(link.json()).toMatchObject({ message: { held: true }, notice: CHAT_MESSAGES.held });
    const id = link.json().message.id as string;
    const seenBy = async (who?: TestMember) => ((await history(app, 'free', who)).json() as ChatHistory).messages.some((x) => x.id === id);
    expect([await seenBy(), await seenBy(dhr1), await seenBy(m), await seenBy(admin)]).toEqual([false, false, true, true]);
    // A repeat of the member's last message is held too.
    expect((await post(app, 'free', m, 'Same words')).json().message.held).toBe(false);
    expect((await post(app, 'free', m, 'same   WORDS')).json().message.held).toBe(true);

    expect((await app.inject({ method: 'POST', url: `/api/admin/chat/messages/${id}/approve`, headers: { cookie: dhr1.cookie } })).statusCode).toBe(403);
    const ok = await app.inject({ method: 'POST', url: `/api/admin/chat/messages/${id}/approve`, headers: { cookie: admin.cookie } });
    expect(ok.json()).toEqual({ message: CHAT_MESSAGES.approved });
    expect(await seenBy()).toBe(true);

    // Per-member limit, as comments have: DHR2 skips slow mode but not the limit. The limit is
    // checked beside the post's reads: 25 posts at once store exactly the 20 it admits.
    const busy = await memberWithRole(app, 'dhr2');
    const codes = (await Promise.all(Array.from({ length: 25 }, (_, i) => post(app, 'free', busy, `message number ${i}`)))).map((r) => r.statusCode);
    expect(codes.filter((c) => c === 201)).toHaveLength(20);
    expect(codes.filter((c) => c === 429)).toHaveLength(5);
    expect(await app.database.db.select().from(chatMessages).where(eq(chatMessages.userId, busy.user.id))).toHaveLength(20);
  });

  it('holds links however they are written, and stores text without invisible characters', async () => {
    // Each from a member of their own: no slow mode or repeat rule between the cases.
    for (const text of [
      'bit.ly/3xYz',
      'join t.me/deephouse',
      'discord.gg/house',
      'shop at example.co.uk',
      'example[.]com',
      'example (dot) com',
      'ｅｘａｍｐｌｅ．ｃｏｍ',
      'exa\u200Bmple.com',
    ]) {
      const res = await post(app, 'free', await memberWithRole(app, 'dhr2'), text);
      expect(res.statusCode, text).toBe(201);
      expect(res.json().message.held, text).toBe(true);
    }
    const plain = await post(app, 'free', await memberWithRole(app, 'dhr2'), 'Kerri Chandler - Rain, 10/10. What a set!');
    expect(plain.json().message.held).toBe(false);
    // Bidi overrides and zero-width characters are dropped by the one text rule: the stored text reads as it shows.
    const sneaky = await post(app, 'free', await memberWithRole(app, 'dhr2'), 'nice \u202Eenil\u202C\u200B set');
    expect(sneaky.statusCode).toBe(201);
    expect(sneaky.json().message.text).toBe('nice enil set');
  });

  it('loads the last messages, oldest first', async () => {
    // Only this test's messages in the chat: an earlier test's post can be newer than the last of these.
    await db.delete(chatMessages).where(eq(chatMessages.channel, 'dhr2'));
    const rows = Array.from({ length: CHAT_HISTORY + 5 }, (_, i) => ({
      channel: 'dhr2',
      userId: dhr2.user.id,
      authorName: dhr2.user.username,
      authorTier: 'dhr2' as const,
      text: `bulk ${i}`,
      status: 'shown' as const,
      createdAt: new Date(Date.now() - (CHAT_HISTORY + 5 - i) * 1000),
    }));
    await db.insert(chatMessages).values(rows);
    const h = (await history(app, 'dhr2', vip)).json() as ChatHistory;
    expect(h.messages).toHaveLength(CHAT_HISTORY);
    const times = h.messages.map((m) => m.createdAt);
    expect(times).toEqual([...times].sort());
    expect(h.messages.at(-1)?.text).toBe(`bulk ${CHAT_HISTORY + 4}`);
    // The oldest bulk messages fell out of the window.
    expect(h.messages.some((m) => m.text === 'bulk 4')).toBe(false);
  });

  it('lets moderators delete messages, mute members for a time, and ban them as from comments', async () => {
    const m = await memberWithRole(app, 'dhr2');
    const id = (await post(app, 'free', m, 'to be deleted')).json().message.id as string;
    const del = (who: TestMember, target = id) => app.inject({ method: 'DELETE', url: `/api/admin/chat/messages/${target}`, headers: { cookie: who.cookie } });
    expect((await del(dhr2)).statusCode).toBe(403);
    expect((await del(admin)).json()).toEqual({ message: CHAT_MESSAGES.deleted });
    expect((await del(admin)).statusCode).toBe(404);
    expect(((await history(app, 'free')).json() as ChatHistory).messages.some((x) => x.id === id)).toBe(false);

    const mute = (who: TestMember, payload: Record<string, unknown>) =>
      app.inject({ method: 'POST', url: '/api/admin/chat/mutes', headers: { cookie: who.cookie }, payload });
    expect((await mute(dhr2, { userId: m.user.id, minutes: 5 })).statusCode).toBe(403);
    expect((await mute(admin, { userId: admin.user.id, minutes: 5 })).json().error.message).toBe(CHAT_MESSAGES.muteSelf);
    expect((await mute(admin, { userId: '00000000-0000-4000-8000-000000000000', minutes: 5 })).statusCode).toBe(404);
    expect((await mute(admin, { userId: m.user.id, minutes: 0 })).statusCode).toBe(400);
    const muted = await mute(admin, { userId: m.user.id, minutes: 5 });
    expect(muted.statusCode).toBe(200);
    const until = muted.json().until as string;
    expect(new Date(until).getTime() - Date.now()).toBeGreaterThan(4 * 60_000);
    const refused = await post(app, 'free', m, 'am I muted?');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: { code: 'muted' }, until });
    expect(refused.json().error.message).toMatch(/^You are muted in chat until .+\.$/);
    expect(((await history(app, 'free', m)).json() as ChatHistory).mutedUntil).toBe(until);
    // The mute ends by itself.
    await db
      .update(chatMembers)
      .set({ mutedUntil: new Date(Date.now() - 1000) })
      .where(eq(chatMembers.userId, m.user.id));
    expect((await post(app, 'free', m, 'back again')).statusCode).toBe(201);

    const ban = await app.inject({
      method: 'POST',
      url: `/api/admin/users/${m.user.id}/ban-comments`,
      headers: { cookie: admin.cookie },
      payload: { reason: 'spam' },
    });
    expect(ban.statusCode).toBeLessThan(300);
    const banned = await post(app, 'free', m, 'banned now?');
    expect(banned.statusCode).toBe(403);
    expect(banned.json().error.code).toBe('banned');
    expect(banned.json().error.message).toContain(CHAT_MESSAGES.banned);
    // Banned members still read, and the history tells them of the ban before they type.
    const read = await history(app, 'free', m);
    expect(read.statusCode).toBe(200);
    expect(read.json().ban).toEqual({ reason: 'spam', until: null });
    expect((await history(app, 'free', admin)).json().ban).toBeNull();
    // The moderator is told the ban covers comments and chat.
    expect(ban.json().message).toBe(MODERATION_MESSAGES.banned(m.user.username));
    expect(ban.json().message).toContain('chat');
  });

  it('delivers messages and deletions as the SSE `chat` event, only to readers of that chat', async () => {
    const anon = await ChatStream.open(sseUrl);
    const member = await ChatStream.open(sseUrl, dhr1.cookie);
    const dhr2Reader = await ChatStream.open(sseUrl, dhr2.cookie);
    await new Promise((r) => setTimeout(r, 100));
    const m = await memberWithRole(app, 'dhr2');
    const premium = (await post(app, 'dhr1', m, 'premium words')).json().message.id as string;
    const open = (await post(app, 'free', m, 'free words')).json().message.id as string;
    await member.waitFor('both messages', () => member.texts('dhr1').includes('premium words') && member.texts('free').includes('free words'));
    await anon.waitFor('the free message', () => anon.texts('free').includes('free words'));
    await dhr2Reader.waitFor('the free message', () => dhr2Reader.texts('free').includes('free words'));
    const exclusive = await memberWithRole(app, 'vip');
    await post(app, 'dhr2', exclusive, 'exclusive words');
    await dhr2Reader.waitFor('the dhr2 message', () => dhr2Reader.texts('dhr2').includes('exclusive words'));
    // A visitor never receives a premium chat; a DHR1 member never the DHR2 one; nothing is sent twice.
    expect(anon.texts('dhr1')).toEqual([]);
    expect(anon.events.some((e) => e.channel !== 'free')).toBe(false);
    expect(member.events.some((e) => e.channel === 'dhr2')).toBe(false);
    expect(member.texts('dhr1').filter((t) => t === 'premium words')).toHaveLength(1);
    // A held message is not delivered.
    await post(app, 'free', m, 'see http://spam.example');
    await app.inject({ method: 'DELETE', url: `/api/admin/chat/messages/${open}`, headers: { cookie: admin.cookie } });
    await anon.waitFor('the deletion', () => anon.events.some((e) => e.kind === 'delete' && e.id === open));
    expect(anon.texts('free').some((t) => t.includes('spam.example'))).toBe(false);
    expect(premium).toBeTruthy();
    for (const s of [anon, member, dhr2Reader]) s.close();
  });

  it('tells a member, and only them, on their open streams when they are muted, banned or their ban is lifted', async () => {
    const m = await memberWithRole(app, 'dhr1');
    const other = await memberWithRole(app, 'dhr1');
    const mine = await ChatStream.open(sseUrl, m.cookie);
    const theirs = await ChatStream.open(sseUrl, other.cookie);
    const anon = await ChatStream.open(sseUrl);
    await new Promise((r) => setTimeout(r, 100));
    const standings = (s: ChatStream) => s.events.filter((e) => e.kind === 'standing').length;
    const moderate = async (method: 'POST' | 'DELETE', url: string, payload?: object) => {
      const res = await app.inject({ method, url, headers: { cookie: admin.cookie }, payload });
      expect(res.statusCode).toBe(200);
    };
    await moderate('POST', '/api/admin/chat/mutes', { userId: m.user.id, minutes: 10 });
    await mine.waitFor('the mute', () => standings(mine) === 1);
    // What the page then reads says it before the member types.
    expect((await history(app, 'free', m)).json().mutedUntil).not.toBeNull();
    await moderate('POST', `/api/admin/users/${m.user.id}/ban-comments`, { reason: 'spam' });
    await mine.waitFor('the ban', () => standings(mine) === 2);
    expect((await history(app, 'free', m)).json().ban).toEqual({ reason: 'spam', until: null });
    await moderate('DELETE', `/api/admin/users/${m.user.id}/ban-comments`);
    await mine.waitFor('the lifted ban', () => standings(mine) === 3);
    expect((await history(app, 'free', m)).json().ban).toBeNull();
    // Nobody else hears of it.
    await new Promise((r) => setTimeout(r, 200));
    expect(standings(theirs) + standings(anon)).toBe(0);
    for (const s of [mine, theirs, anon]) s.close();
  });

  it("ends a member's streams when they sign out or lose the tier, and every stream within its maximum life", async () => {
    const settled = async (n: number) => {
      const deadline = Date.now() + 3000;
      while (app.modules.events.hub.size !== n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    };
    await settled(0);
    // Sign-out: the stream ends within seconds (the browser reconnects as a visitor).
    const leaving = await memberWithRole(app, 'dhr2');
    const signedIn = await ChatStream.open(sseUrl, leaving.cookie);
    await settled(1);
    expect((await app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie: leaving.cookie } })).statusCode).toBe(200);
    await signedIn.waitFor('the stream to end at sign-out', () => signedIn.ended);

    // A downgrade: the stream that heard the DHR2 chat ends; the one the member opens next does not hear it.
    const downgraded = await memberWithRole(app, 'dhr2');
    const before = await ChatStream.open(sseUrl, downgraded.cookie);
    const untouched = await ChatStream.open(sseUrl, vip.cookie);
    await settled(2);
    const assigned = await app.inject({
      method: 'POST',
      url: '/api/admin/assign-tier',
      headers: { cookie: admin.cookie },
      payload: { email: downgraded.user.email, tier: 'free' },
    });
    expect(assigned.statusCode).toBe(200);
    await before.waitFor('the stream to end at the downgrade', () => before.ended);
    const after = await ChatStream.open(sseUrl, downgraded.cookie);
    await settled(2);
    await post(app, 'dhr2', await memberWithRole(app, 'vip'), 'only for dhr2 now');
    await untouched.waitFor('the dhr2 message', () => untouched.texts('dhr2').includes('only for dhr2 now'));
    await new Promise((r) => setTimeout(r, 200));
    expect(after.texts('dhr2')).toEqual([]);
    expect(untouched.ended).toBe(false);
    for (const s of [after, untouched]) s.close();
    await settled(0);

    // Maximum life: streams end by themselves (shortened here) and the browser reconnects.
    app.modules.events.hub.heartbeatMs = 50;
    app.modules.events.hub.maxLifeMs = 150;
    try {
      const old = await ChatStream.open(sseUrl, vip.cookie);
      await old.waitFor('the stream to reach its maximum life', () => old.ended);
    } finally {
      app.modules.events.hub.heartbeatMs = 25_000;
      app.modules.events.hub.maxLifeMs = STREAM_MAX_LIFE_MS;
    }
  });

  it('reaches readers on another instance of the same database (NOTIFY)', async () => {
    // On PostgreSQL the second instance has its own pool and LISTEN connection; on PGlite it shares the database object.
    const pgUrl = app.config.DATABASE_URL;
    const second = await buildApp(loadConfig({ LOG_LEVEL: 'silent', ...(pgUrl ? { DATABASE_URL: pgUrl } : {}) }, { backgroundJobs: false, memoryDb: true }), {
      logger: false,
      ...(pgUrl ? {} : { database: app.database }),
    });
    try {
      await second.listen({ port: 0, host: '127.0.0.1' });
      const reader = await ChatStream.open(`http://127.0.0.1:${(second.server.address() as AddressInfo).port}/api/live/events`, vip.cookie);
      await new Promise((r) => setTimeout(r, 100));
      const m = await memberWithRole(app, 'dhr2');
      await post(app, 'dhr1', m, 'across instances');
      await reader.waitFor('the message from the first instance', () => reader.texts('dhr1').includes('across instances'));
      await new Promise((r) => setTimeout(r, 200));
      expect(reader.texts('dhr1').filter((t) => t === 'across instances')).toHaveLength(1);
      reader.close();
    } finally {
      await second.close();
    }
  });

  it('keeps messages 30 days', async () => {
    const old = { channel: 'free', userId: dhr1.user.id, authorName: 'x', authorTier: 'dhr1' as const, status: 'shown' as const };
    const [gone, kept] = await db
      .insert(chatMessages)
      .values([
        { ...old, text: 'from last season', createdAt: new Date(Date.now() - 31 * DAY_MS) },
        { ...old, text: 'from last month', createdAt: new Date(Date.now() - 29 * DAY_MS) },
      ])
      .returning();
    expect(await pruneChat(db)).toBeGreaterThanOrEqual(1);
    const ids = (await messagesOf(app)).map((r) => r.id);
    expect(ids).not.toContain(gone?.id);
    expect(ids).toContain(kept?.id);
  });
});

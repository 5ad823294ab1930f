import type { AddressInfo } from 'node:net';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { channelListSchema, streamTicketSchema } from '../../src/contracts/channels';
import { RATE_RULES } from '../../src/server/lib/rate-limit';
import { streamConnections, users } from '../../src/server/db/schema';
import { renewStreamConnections } from '../../src/server/modules/radio/stream-admission';
import { onAir } from '../support/now-playing';
import { ICY_READER_SUBJECT, STREAM_TOKEN_TTL_S } from '../../src/server/modules/radio/stream-tokens';
import { ICY_READER_AGENT } from '../../src/server/modules/radio/icy-titles';
import { createTestApp, memberWithRole, type TestMember } from '../support/app';
import { freePort, hasIcecast, ICECAST_INSTALL_HINT, radioEnv, startTestRadio } from '../support/icecast';

if (!hasIcecast) console.warn(`Skipping the real Icecast stream-auth tests: ${ICECAST_INSTALL_HINT}`);

const KEY = 'test-stream-auth-key-0123456789';
const basic = (key: string) => `Basic ${Buffer.from(`icecast:${key}`).toString('base64')}`;
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

describe('stream tokens and the listener-auth endpoint', async () => {
  const app = await createTestApp({ STREAM_AUTH_KEY: KEY, ...radioEnv(8000) });

  async function ticket(cookie: string, channel: string) {
    return app.inject({ method: 'GET', url: `/api/channels/${channel}/stream`, headers: { cookie } });
  }
  async function icecastAsks(mount: string, action = 'listener_add', auth: string | null = basic(KEY)) {
    return app.inject({
      method: 'POST',
      url: '/api/stream-auth/listener',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(auth ? { authorization: auth } : {}) },
      payload: form({ action, server: '127.0.0.1', port: '8000', client: '7', mount, user: '', pass: '', ip: '127.0.0.1', agent: 'test' }),
    });
  }
  const tokenOf = (url: string) => new URL(url).searchParams.get('token') ?? '';

  it('lists channels without a playable premium URL: the free URL, tiers and bitrate labels only', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/channels' });
    const list = channelListSchema.parse(res.json());
    expect(res.body).not.toMatch(/8000\/dhr1"|8000\/dhr2"|streamUrl/);
    expect(list.find((c) => c.id === 'dhr1')).toMatchObject({
      requiredTier: 'dhr1',
      bitrateLabel: '320kbps',
      freeStreamUrl: 'http://127.0.0.1:8000/dhr1-free',
      freeBitrateLabel: '128kbps',
    });
    expect(list.find((c) => c.id === 'dhr2')).toMatchObject({ requiredTier: 'dhr2', freeStreamUrl: null, freeBitrateLabel: null });
  });

  it('answers 401 to visitors, 403 below the tier, 404 for an unknown channel', async () => {
    const visitor = await app.inject({ method: 'GET', url: '/api/channels/dhr1/stream' });
    expect(visitor.statusCode).toBe(401);
    expect(visitor.json()).toMatchObject({ error: { code: 'unauthorized' } });
    const free = await memberWithRole(app, 'free');
    const below = await ticket(free.cookie, 'dhr1');
    expect(below.statusCode).toBe(403);
    expect(below.json()).toMatchObject({ error: { code: 'channel_tier_required', message: 'This needs an active DHR1 subscription' } });
    const dhr1 = await memberWithRole(app, 'dhr1');
    expect((await ticket(dhr1.cookie, 'dhr2')).json()).toMatchObject({ error: { message: 'This needs an active DHR2 subscription' } });
    const expired = await memberWithRole(app, 'expired-vip');
    expect((await ticket(expired.cookie, 'dhr1')).statusCode).toBe(403);
    const unknown = await ticket(dhr1.cookie, 'dhr9');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ error: { code: 'unknown_channel' } });
  });

  it('gives a member whose tier opens the channel the premium URL with a token of minutes', async () => {
    const dhr2 = await memberWithRole(app, 'dhr2');
    const before = Date.now();
    const res = await ticket(dhr2.cookie, 'dhr2');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = streamTicketSchema.parse(res.json());
    expect(body.url).toMatch(/^http:\/\/127\.0\.0\.1:8000\/dhr2\?token=[\w.-]+$/);
    const ttl = Date.parse(body.expiresAt) - before;
    expect(ttl).toBeGreaterThan((STREAM_TOKEN_TTL_S - 5) * 1000);
    expect(ttl).toBeLessThanOrEqual(STREAM_TOKEN_TTL_S * 1000 + 1000);
    // DHR2 opens DHR1 too.
    expect((await ticket(dhr2.cookie, 'dhr1')).statusCode).toBe(200);
  });

  it('refuses Icecast callers without the key (401), before reading the body', async () => {
    expect((await icecastAsks('/dhr1', 'listener_add', null)).statusCode).toBe(401);
    const wrong = await icecastAsks('/dhr1', 'listener_add', basic(`${KEY}x`));
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ error: { code: 'stream_key_required' } });
    const garbage = await app.inject({
      method: 'POST',
      url: '/api/stream-auth/listener',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'x'.repeat(100_000),
    });
    expect(garbage.statusCode).toBe(401);
  });

  it('admits a valid token for the right mount and refuses every other one, never with a 5xx', async () => {
    const dhr1 = await memberWithRole(app, 'dhr1');
    const url = streamTicketSchema.parse((await ticket(dhr1.cookie, 'dhr1')).json()).url;
    const token = tokenOf(url);
    const ok = await icecastAsks(`/dhr1?token=${encodeURIComponent(token)}`);
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['icecast-auth-user']).toBe('1');
    // No expiry on the subscription: no time limit.
    expect(ok.headers['icecast-auth-timelimit']).toBeUndefined();

    const [subject = '', expiry = '', signature = ''] = token.split('.');
    const flipped = `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
    const refused = [
      '/dhr1',
      '/dhr1?token=',
      `/dhr2?token=${token}`,
      `/dhr1?token=${subject}.${expiry}.${flipped}`,
      `/dhr1?token=${subject}.${Number(expiry) + 3600}.${signature}`,
      `/dhr1?token=${app.modules.streamTokens.issue(dhr1.user.id, '/dhr1', STREAM_TOKEN_TTL_S, Date.now() - 3600_000).token}`,
      `/dhr9?token=${token}`,
      '/dhr1?token=%00%ff<script>',
      `/dhr1?token=${'a'.repeat(3000)}`,
    ];
    for (const mount of refused) {
      const res = await icecastAsks(mount);
      expect(res.statusCode, mount).toBe(200);
      expect(res.headers['icecast-auth-user'], mount).toBeUndefined();
      expect(res.json(), mount).toMatchObject({ admitted: false });
    }
    const malformed = await app.inject({
      method: 'POST',
      url: '/api/stream-auth/listener',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(KEY) },
      payload: 'action=listener_add',
    });
    expect(malformed.statusCode).toBe(400);
    expect((await icecastAsks(`/dhr1?token=${token}`, 'listener_remove')).statusCode).toBe(200);
  });

  it('re-reads the member: a tier removed after the token was issued is refused', async () => {
    const member = await memberWithRole(app, 'dhr2');
    const token = tokenOf(streamTicketSchema.parse((await ticket(member.cookie, 'dhr2')).json()).url);
    expect((await icecastAsks(`/dhr2?token=${token}`)).headers['icecast-auth-user']).toBe('1');
    await app.database.db.update(users).set({ subscriptionTier: 'dhr1' }).where(eq(users.id, member.user.id));
    expect((await icecastAsks(`/dhr2?token=${token}`)).headers['icecast-auth-user']).toBeUndefined();
  });

  it('caps a connection at the subscription expiry', async () => {
    const member = await memberWithRole(app, 'dhr1');
    await app.database.db
      .update(users)
      .set({ subscriptionExpiry: new Date(Date.now() + 600_000) })
      .where(eq(users.id, member.user.id));
    const token = tokenOf(streamTicketSchema.parse((await ticket(member.cookie, 'dhr1')).json()).url);
    const res = await icecastAsks(`/dhr1?token=${token}`);
    expect(res.headers['icecast-auth-user']).toBe('1');
    expect(Number(res.headers['icecast-auth-timelimit'])).toBeGreaterThan(590);
    expect(Number(res.headers['icecast-auth-timelimit'])).toBeLessThanOrEqual(600);
  });
});

describe('one member, at most STREAM_MAX_CONCURRENT premium connections at once', async () => {
  const app = await createTestApp({ STREAM_AUTH_KEY: KEY, STREAM_MAX_CONCURRENT: '2', ...radioEnv(8000) });
  const admin = await memberWithRole(app, 'admin');

  async function tokenFor(cookie: string, channel: string): Promise<string> {
    const res = await app.inject({ method: 'GET', url: `/api/channels/${channel}/stream`, headers: { cookie } });
    return new URL(streamTicketSchema.parse(res.json()).url).searchParams.get('token') ?? '';
  }
  function icecast(action: string, mount: string, client: string, ip = '198.51.100.23', agent = 'VLC/3.0.20 LibVLC/3.0.20') {
    return app.inject({
      method: 'POST',
      url: '/api/stream-auth/listener',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(KEY) },
      payload: form({ action, server: 'radio.example', port: '8000', client, mount, user: '', pass: '', ip, agent, duration: '12' }),
    });
  }
  const admitted = (res: { headers: Record<string, unknown> }) => res.headers['icecast-auth-user'] === '1';
  async function connectionsOf(userId: string, cookie = admin.cookie) {
    return app.inject({ method: 'GET', url: `/api/admin/users/${userId}/stream-connections`, headers: { cookie } });
  }

  it('admits two connections across mounts, refuses the third with the reason in the auth message, and admits again after one ends', async () => {
    const member = await memberWithRole(app, 'dhr2');
    const dhr1 = `/dhr1?token=${await tokenFor(member.cookie, 'dhr1')}`;
    const dhr2 = `/dhr2?token=${await tokenFor(member.cookie, 'dhr2')}`;
    expect(admitted(await icecast('listener_add', dhr1, '101'))).toBe(true);
    expect(admitted(await icecast('listener_add', dhr2, '102', '2001:db8:abcd:12::5', 'Mozilla/5.0 (iPhone)'))).toBe(true);
    const third = await icecast('listener_add', dhr1, '103');
    expect(admitted(third)).toBe(false);
    expect(third.statusCode).toBe(200);
    expect(String(third.headers['icecast-auth-message'])).toContain('already listening on 2 connections');
    expect(third.json()).toMatchObject({ admitted: false });

    // The admin sees both, by network only.
    const view = (await connectionsOf(member.user.id)).json();
    expect(view.maxConcurrent).toBe(2);
    expect(view.current.map((c: { mount: string; network: string }) => [c.mount, c.network]).sort()).toEqual([
      ['/dhr1', '198.51.100.0/24'],
      ['/dhr2', '2001:db8:abcd::/48'],
    ]);
    expect(JSON.stringify(view)).not.toContain('198.51.100.23');

    // Icecast reports one gone: the next connection is admitted, and the ended one is listed as recent.
    await icecast('listener_remove', dhr1, '101');
    expect(admitted(await icecast('listener_add', dhr1, '104'))).toBe(true);
    const after = (await connectionsOf(member.user.id)).json();
    expect(after.current).toHaveLength(2);
    expect(after.recent).toHaveLength(1);
    expect(after.recent[0]).toMatchObject({ mount: '/dhr1', userAgent: 'VLC/3.0.20 LibVLC/3.0.20' });
    expect(after.recent[0].endedAt).not.toBeNull();
  });

  it('fails closed at the cap: a cached status showing the mount empty frees nothing, and an unreadable listener list refuses with the reason', async () => {
    const member = await memberWithRole(app, 'dhr1');
    const mount = `/dhr1?token=${await tokenFor(member.cookie, 'dhr1')}`;
    expect(admitted(await icecast('listener_add', mount, '601'))).toBe(true);
    expect(admitted(await icecast('listener_add', mount, '602'))).toBe(true);
    // Both a minute old: old enough that Icecast's own list would name them if they were still there.
    await app.database.db
      .update(streamConnections)
      .set({ startedAt: new Date(Date.now() - 60_000) })
      .where(eq(streamConnections.userId, member.user.id));
    // The status poll last saw the mount quiet (or off air): that is no proof the member's rows ended.
    await app.modules.nowPlaying.publish(onAir('dhr1', 'Quiet', 'Mount', 0));
    await app.modules.nowPlaying.publish({ ...onAir('dhr2', 'Off', 'Air', 0), online: false });
    const answers = await Promise.all(['603', '604', '605', '606'].map((client) => icecast('listener_add', mount, client)));
    expect(answers.filter(admitted)).toHaveLength(0);
    // No ICECAST_ADMIN_PASSWORD here: the list Icecast keeps cannot be read, and the auth message says so.
    expect(String(answers[0]?.headers['icecast-auth-message'])).toContain('listener list cannot be read');
    expect((await connectionsOf(member.user.id)).json().current).toHaveLength(2);
  });

  it('counts under a lock: of five connections arriving at once, exactly two get in', async () => {
    const member = await memberWithRole(app, 'dhr1');
    const mount = `/dhr1?token=${await tokenFor(member.cookie, 'dhr1')}`;
    const answers = await Promise.all(['201', '202', '203', '204', '205'].map((client) => icecast('listener_add', mount, client)));
    expect(answers.filter(admitted)).toHaveLength(2);
    expect((await connectionsOf(member.user.id)).json().current).toHaveLength(2);
  });

  it('a connection id Icecast hands out again (it restarted) replaces the old row instead of blocking the member', async () => {
    const member = await memberWithRole(app, 'dhr1');
    const mount = `/dhr1?token=${await tokenFor(member.cookie, 'dhr1')}`;
    expect(admitted(await icecast('listener_add', mount, '301'))).toBe(true);
    expect(admitted(await icecast('listener_add', mount, '302'))).toBe(true);
    // Icecast restarted and numbers connections from the start: 301 is a new connection.
    expect(admitted(await icecast('listener_add', mount, '301'))).toBe(true);
    expect((await connectionsOf(member.user.id)).json().current).toHaveLength(2);
  });

  it('the monitor is not a member and is never counted; a refused token opens no row', async () => {
    const monitor = app.modules.streamTokens.issue('monitor', '/dhr1').token;
    for (const client of ['401', '402', '403']) expect(admitted(await icecast('listener_add', `/dhr1?token=${monitor}`, client))).toBe(true);
    const member = await memberWithRole(app, 'free');
    expect(admitted(await icecast('listener_add', '/dhr1?token=nope', '404'))).toBe(false);
    expect((await connectionsOf(member.user.id)).json().current).toEqual([]);
  });

  it("DHR's title reader is admitted with no time limit and opens no row; its token opens only its mount", async () => {
    const reader = app.modules.streamTokens.issue(ICY_READER_SUBJECT, '/dhr1', 60).token;
    for (const client of ['501', '502', '503']) {
      const res = await icecast('listener_add', `/dhr1?token=${reader}`, client, '127.0.0.1', ICY_READER_AGENT);
      expect(admitted(res)).toBe(true);
      expect(res.headers['icecast-auth-timelimit']).toBeUndefined();
    }
    expect(admitted(await icecast('listener_add', `/dhr2?token=${reader}`, '504'))).toBe(false);
    const rows = await app.database.db
      .select()
      .from(streamConnections)
      .where(inArray(streamConnections.clientId, ['501', '502', '503', '504']));
    expect(rows).toEqual([]);
  });

  it('the connection list is for admins only, and a member id that does not exist is 404', async () => {
    const member = await memberWithRole(app, 'vip');
    expect((await connectionsOf(member.user.id, member.cookie)).statusCode).toBe(403);
    expect((await connectionsOf('00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await connectionsOf('not-a-uuid')).statusCode).toBe(400);
  });
});

describe('without STREAM_AUTH_KEY', async () => {
  const app = await createTestApp();
  const guess = (remoteAddress: string) =>
    app.inject({
      method: 'POST',
      url: '/api/stream-auth/listener',
      remoteAddress,
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic('anything-at-all-16') },
      payload: form({ action: 'listener_add', mount: '/dhr1' }),
    });

  it('Icecast cannot be answered: every caller gets 401, and a guesser 429 once over the limit', async () => {
    expect((await guess('192.0.2.10')).statusCode).toBe(401);
    for (let i = 0; i < RATE_RULES.streamAuth.perIp.max; i++) expect((await guess('192.0.2.20')).statusCode).toBe(401);
    const limited = await guess('192.0.2.20');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ error: { code: 'rate_limited' } });
    // Another address is not affected.
    expect((await guess('192.0.2.30')).statusCode).toBe(401);
  });
});

/** Opens a stream like a player: the HTTP status, and whether MP3 audio arrived. */
async function listen(url: string): Promise<{ status: number; audio: boolean }> {
  const controller = new AbortController();
  const res = await fetch(url, { signal: controller.signal, headers: { 'icy-metadata': '0' } });
  let audio = false;
  if (res.ok && res.body) {
    const reader = res.body.getReader();
    const { value } = await reader.read();
    audio = (value?.byteLength ?? 0) > 0 && (res.headers.get('content-type') ?? '').includes('audio/mpeg');
  }
  controller.abort();
  await res.body?.cancel().catch(() => undefined);
  return { status: res.status, audio };
}

describe.skipIf(!hasIcecast)('premium mounts on a real icecast2 ask DHR about every listener', async () => {
  const icecastPort = await freePort();
  const app = await createTestApp({ STREAM_AUTH_KEY: KEY, ...radioEnv(icecastPort) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const dhrPort = (app.server.address() as AddressInfo).port;
  const radio = await startTestRadio(
    ['dhr2'],
    {},
    { bitrateKbps: 320 },
    {
      port: icecastPort,
      listenerAuth: { mounts: ['dhr1', 'dhr2'], url: `http://127.0.0.1:${dhrPort}/api/stream-auth/listener`, key: KEY },
    },
  );
  // The DHR1 programme once, encoded for the premium and the free mount.
  await radio.startFeed('dhr1', { bitrateKbps: 320, alsoAt: [{ mount: 'dhr1-free', bitrateKbps: 128 }] });

  async function ticketUrl(cookie: string, channel: string): Promise<string> {
    const res = await app.inject({ method: 'GET', url: `/api/channels/${channel}/stream`, headers: { cookie } });
    return streamTicketSchema.parse(res.json()).url;
  }

  it('anyone plays the free 128 kbps mount; both premium mounts refuse a listener without a token', async () => {
    expect(await listen(radio.streamUrl('dhr1-free'))).toEqual({ status: 200, audio: true });
    expect((await listen(radio.streamUrl('dhr1'))).status).toBe(401);
    expect((await listen(radio.streamUrl('dhr2'))).status).toBe(401);
  });

  it('a DHR1 member plays DHR1 with a token and is refused on DHR2, even with that token', async () => {
    const member = await memberWithRole(app, 'dhr1');
    const url = await ticketUrl(member.cookie, 'dhr1');
    expect(await listen(url)).toEqual({ status: 200, audio: true });
    const token = new URL(url).searchParams.get('token') ?? '';
    expect((await listen(`${radio.streamUrl('dhr2')}?token=${token}`)).status).toBe(401);
  });

  it('refuses tampered, expired and other-mount tokens', async () => {
    const member = await memberWithRole(app, 'vip');
    const token = new URL(await ticketUrl(member.cookie, 'dhr2')).searchParams.get('token') ?? '';
    expect((await listen(`${radio.streamUrl('dhr2')}?token=${token}`)).status).toBe(200);
    const tampered = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
    expect((await listen(`${radio.streamUrl('dhr2')}?token=${tampered}`)).status).toBe(401);
    const expired = app.modules.streamTokens.issue(member.user.id, '/dhr2', 60, Date.now() - 120_000).token;
    expect((await listen(`${radio.streamUrl('dhr2')}?token=${expired}`)).status).toBe(401);
    expect((await listen(`${radio.streamUrl('dhr1')}?token=${token}`)).status).toBe(401);
  });

  it('a member whose tier is removed cannot start a new connection with a token issued before', async () => {
    const member = await memberWithRole(app, 'dhr2');
    const url = await ticketUrl(member.cookie, 'dhr2');
    expect((await listen(url)).status).toBe(200);
    await app.database.db.update(users).set({ subscriptionTier: 'free', subscriptionStatus: 'cancelled' }).where(eq(users.id, member.user.id));
    expect((await listen(url)).status).toBe(401);
  });
});

/** Opens a stream and keeps it playing until `close()`; the HTTP status as Icecast answered. */
async function hold(url: string): Promise<{ status: number; close: () => Promise<void> }> {
  const controller = new AbortController();
  const res = await fetch(url, { signal: controller.signal, headers: { 'icy-metadata': '0' } });
  const reader = res.body?.getReader();
  if (res.ok) await reader?.read();
  // Keep reading so Icecast never drops the listener as too slow.
  const drain = (async () => {
    try {
      while (reader && !(await reader.read()).done);
    } catch {
      // aborted
    }
  })();
  return {
    status: res.status,
    close: async () => {
      controller.abort();
      await drain;
    },
  };
}

describe.skipIf(!hasIcecast)('a real icecast2 holds a member to two connections at once', async () => {
  const icecastPort = await freePort();
  const adminPassword = 'icecast-admin-secret';
  const app = await createTestApp({ STREAM_AUTH_KEY: KEY, STREAM_MAX_CONCURRENT: '2', ICECAST_ADMIN_PASSWORD: adminPassword, ...radioEnv(icecastPort) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const dhrPort = (app.server.address() as AddressInfo).port;
  await startTestRadio(
    ['dhr1', 'dhr2'],
    {},
    { bitrateKbps: 128 },
    {
      port: icecastPort,
      adminPassword,
      listenerAuth: { mounts: ['dhr1', 'dhr2'], url: `http://127.0.0.1:${dhrPort}/api/stream-auth/listener`, key: KEY },
    },
  );
  const ticketOf = (member: TestMember) => async (channel: string) =>
    streamTicketSchema.parse((await app.inject({ method: 'GET', url: `/api/channels/${channel}/stream`, headers: { cookie: member.cookie } })).json()).url;

  it('six connections on one token with the cap at 2: exactly two play, though the cached status shows the mount empty', async () => {
    const member = await memberWithRole(app, 'dhr1');
    const url = await ticketOf(member)('dhr1');
    await app.modules.nowPlaying.publish(onAir('dhr1', 'Quiet', 'Mount', 0));
    const six = await Promise.all(Array.from({ length: 6 }, () => hold(url)));
    expect(six.filter((c) => c.status === 200)).toHaveLength(2);
    await Promise.all(six.map((c) => c.close()));
  });

  it('ends a row whose listener_remove never came after two listener lists miss it, and renews the ones Icecast lists', async () => {
    const member = await memberWithRole(app, 'dhr2');
    const playing = await hold(await ticketOf(member)('dhr2'));
    expect(playing.status).toBe(200);
    // A connection Icecast no longer holds, whose listener_remove was lost.
    const [lost] = await app.database.db
      .insert(streamConnections)
      .values({
        userId: member.user.id,
        mount: '/dhr2',
        icecast: 'lost:8000',
        clientId: '999999',
        network: '198.51.100.0/24',
        userAgent: 'VLC',
        startedAt: new Date(Date.now() - 60_000),
      })
      .returning();
    const open = async () =>
      await app.database.db
        .select()
        .from(streamConnections)
        .where(and(eq(streamConnections.userId, member.user.id), isNull(streamConnections.endedAt)));
    expect(await open()).toHaveLength(2);
    const first = await renewStreamConnections(app.database.db, app.modules.nowPlaying, { user: 'admin', password: adminPassword });
    expect(first.unreadable).toEqual([]);
    expect((await open()).map((r) => r.id)).toContain(lost?.id);
    await renewStreamConnections(app.database.db, app.modules.nowPlaying, { user: 'admin', password: adminPassword });
    const left = await open();
    expect(left.map((r) => r.id)).not.toContain(lost?.id);
    expect(left).toHaveLength(1);
    expect(left[0]?.lastSeenAt).not.toBeNull();
    expect(left[0]?.missedReads).toBe(0);
    // A wrong password reads nothing and ends nothing.
    const unreadable = await renewStreamConnections(app.database.db, app.modules.nowPlaying, { user: 'admin', password: 'wrong' });
    expect(unreadable.unreadable).toContain('/dhr2');
    expect(await open()).toHaveLength(1);
    await playing.close();
  });

  it('refuses the third connection and lets one in again once Icecast reports one gone', async () => {
    const member = await memberWithRole(app, 'dhr2');
    const ticket = ticketOf(member);
    const first = await hold(await ticket('dhr1'));
    const second = await hold(await ticket('dhr2'));
    expect([first.status, second.status]).toEqual([200, 200]);
    // A shared link: the same URL from a third place.
    const third = await hold(await ticket('dhr1'));
    expect(third.status).toBe(401);
    await third.close();

    await first.close();
    // Icecast tells DHR (listener_remove) once it notices the closed socket.
    let again = { status: 0, close: async () => undefined } as Awaited<ReturnType<typeof hold>>;
    for (let i = 0; i < 50 && again.status !== 200; i++) {
      await again.close();
      await new Promise((r) => setTimeout(r, 200));
      again = await hold(await ticket('dhr1'));
    }
    expect(again.status).toBe(200);
    await Promise.all([again.close(), second.close()]);
  });
});

describe.skipIf(!hasIcecast)('listener counts per mount on System Status', async () => {
  const icecastPort = await freePort();
  const app = await createTestApp({ STREAM_AUTH_KEY: KEY, ...radioEnv(icecastPort) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const dhrPort = (app.server.address() as AddressInfo).port;
  const radio = await startTestRadio(
    [],
    {},
    {},
    {
      port: icecastPort,
      listenerAuth: { mounts: ['dhr1', 'dhr2'], url: `http://127.0.0.1:${dhrPort}/api/stream-auth/listener`, key: KEY },
    },
  );
  await radio.startFeed('dhr1', { bitrateKbps: 320, alsoAt: [{ mount: 'dhr1-free', bitrateKbps: 128 }] });

  it('counts the listeners Icecast holds on each mount, live', async () => {
    const admin = await memberWithRole(app, 'admin');
    const member = await memberWithRole(app, 'dhr1');
    const url = streamTicketSchema.parse((await app.inject({ url: '/api/channels/dhr1/stream', headers: { cookie: member.cookie } })).json()).url;
    const held = [new AbortController(), new AbortController(), new AbortController()];
    const [a, b, c] = held;
    try {
      // Two free listeners and one premium listener, kept connected.
      const responses = await Promise.all([
        fetch(radio.streamUrl('dhr1-free'), { signal: a?.signal }),
        fetch(radio.streamUrl('dhr1-free'), { signal: b?.signal }),
        fetch(url, { signal: c?.signal }),
      ]);
      // Keep reading, so the connections stay open (and are not collected) until the end.
      for (const res of responses) void res.body?.pipeTo(new WritableStream()).catch(() => undefined);
      const mounts = async () => {
        const res = await app.inject({ url: '/api/admin/system-status', headers: { cookie: admin.cookie } });
        const dhr1 = (res.json() as { channels: { id: string; mounts: { mount: string; listeners: number | null; requiredTier: string }[] }[] }).channels.find(
          (ch) => ch.id === 'dhr1',
        );
        return Object.fromEntries((dhr1?.mounts ?? []).map((m) => [m.mount, [m.requiredTier, m.listeners]]));
      };
      await expect.poll(mounts, { timeout: 15_000, interval: 1000 }).toEqual({ '/dhr1': ['dhr1', 1], '/dhr1-free': ['free', 2] });
    } finally {
      for (const h of held) h.abort();
    }
  });
});

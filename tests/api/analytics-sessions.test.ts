import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { streamTicketSchema } from '../../src/contracts/channels';
import { ownDataExportSchema } from '../../src/contracts/account';
import { listeningSessions } from '../../src/server/db/schema';
import { runPrivacyRetention } from '../../src/server/modules/account/privacy-retention';
import { recordListeningSessions } from '../../src/server/modules/analytics/listening-sessions';
import { ICY_READER_AGENT } from '../../src/server/modules/radio/icy-titles';
import { DAY_MS, MINUTE_MS } from '../../src/contracts/time';
import { createTestApp, memberWithRole } from '../support/app';
import { freePort, hasIcecast, ICECAST_INSTALL_HINT, radioEnv, startTestRadio } from '../support/icecast';

if (!hasIcecast) console.warn(`Skipping the listening-session tests: ${ICECAST_INSTALL_HINT}`);

const KEY = 'test-stream-auth-key-0123456789';

/** A listener holding a mount open (reading on so Icecast never drops it as too slow). */
async function listen(url: string, userAgent: string): Promise<{ status: number; close: () => Promise<void> }> {
  const controller = new AbortController();
  const res = await fetch(url, { signal: controller.signal, headers: { 'icy-metadata': '0', 'user-agent': userAgent } });
  const reader = res.body?.getReader();
  if (res.ok) await reader?.read();
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

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

describe.skipIf(!hasIcecast)("listening sessions from a real icecast2's listener lists", async () => {
  const icecastPort = await freePort();
  const adminPassword = 'icecast-admin-secret';
  const app = await createTestApp({ STREAM_AUTH_KEY: KEY, ICECAST_ADMIN_PASSWORD: adminPassword, ...radioEnv(icecastPort) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const dhrPort = (app.server.address() as AddressInfo).port;
  const radio = await startTestRadio(
    ['dhr1', 'dhr1-free', 'dhr2'],
    {},
    { bitrateKbps: 64 },
    {
      port: icecastPort,
      adminPassword,
      listenerAuth: { mounts: ['dhr1', 'dhr2'], url: `http://127.0.0.1:${dhrPort}/api/stream-auth/listener`, key: KEY },
    },
  );
  const admin = { user: 'admin', password: adminPassword };
  const read = () => recordListeningSessions(app.database.db, app.modules.nowPlaying, admin);
  const rows = () => app.database.db.select().from(listeningSessions);
  /** Icecast notices a closed listener on its next write: reads the lists until none is open on the mount. */
  async function readUntilGone(mount: string) {
    let ended = 0;
    for (let i = 0; i < 50; i++) {
      await sleep(100);
      ended += (await read()).ended;
      if (!(await rows()).some((r) => r.mount === mount && r.endedAt === null)) return ended;
    }
    throw new Error(`a listener on ${mount} stayed listed`);
  }

  it('opens a session per listener on every mount, ends it when it was last listed, and keeps 30 minutes as 1800 s', async () => {
    const member = await memberWithRole(app, 'dhr1');
    const ticket = streamTicketSchema.parse(
      (await app.inject({ method: 'GET', url: '/api/channels/dhr1/stream', headers: { cookie: member.cookie } })).json(),
    ).url;
    const premium = await listen(ticket, 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/120.0 Safari/537.36');
    const free = await listen(radio.streamUrl('dhr1-free'), 'VLC/3.0.20 LibVLC/3.0.20');
    const titleReader = await listen(radio.streamUrl('dhr1-free'), ICY_READER_AGENT);
    expect([premium.status, free.status, titleReader.status]).toEqual([200, 200, 200]);

    const first = await read();
    expect(first).toMatchObject({ opened: 2, ended: 0, unreadable: [] });
    const open = await rows();
    expect(open).toHaveLength(2);
    expect(open.find((r) => r.mount === '/dhr1')).toMatchObject({
      channelId: 'dhr1',
      userId: member.user.id,
      player: 'browser',
      network: '127.0.0.0/24',
      endedAt: null,
    });
    expect(open.find((r) => r.mount === '/dhr1-free')).toMatchObject({ channelId: 'dhr1', userId: null, player: 'media_player', endedAt: null });

    // The listeners have been there 30 minutes longer than the test ran: the rows say so.
    for (const r of open)
      await app.database.db
        .update(listeningSessions)
        .set({ startedAt: new Date(r.startedAt.getTime() - 30 * MINUTE_MS) })
        .where(eq(listeningSessions.id, r.id));
    expect(await read()).toMatchObject({ opened: 0, ended: 0 });
    await free.close();
    expect(await readUntilGone('/dhr1-free')).toBe(1);
    const ended = (await rows()).find((r) => r.mount === '/dhr1-free');
    expect(ended?.endedAt).not.toBeNull();
    expect(ended?.endedAt?.getTime()).toBe(ended?.lastSeenAt.getTime());
    expect(ended?.durationS).toBeGreaterThanOrEqual(30 * 60);
    expect(ended?.durationS).toBeLessThan(30 * 60 + 10);

    // The member's own sessions are in their export.
    const exported = ownDataExportSchema.parse((await app.inject({ method: 'GET', url: '/api/me/export', headers: { cookie: member.cookie } })).json());
    expect(exported.listeningSessions).toEqual([expect.objectContaining({ channel: 'dhr1', mount: '/dhr1', player: 'browser', endedAt: null })]);

    await premium.close();
    await titleReader.close();
    await readUntilGone('/dhr1');
    expect((await rows()).every((r) => r.endedAt !== null)).toBe(true);
  });

  it('drops a session under 5 s as a reconnect, and changes nothing when the list cannot be read', async () => {
    const before = (await rows()).length;
    const blip = await listen(radio.streamUrl('dhr1-free'), 'okhttp/4.12.0');
    expect((await read()).opened).toBe(1);
    expect(await rows()).toHaveLength(before + 1);
    await blip.close();
    expect(await readUntilGone('/dhr1-free')).toBe(0);
    expect(await rows()).toHaveLength(before);

    const held = await listen(radio.streamUrl('dhr1-free'), 'okhttp/4.12.0');
    await read();
    await held.close();
    await sleep(1000);
    const wrong = await recordListeningSessions(app.database.db, app.modules.nowPlaying, { user: 'admin', password: 'wrong' });
    expect(wrong.unreadable).toEqual(expect.arrayContaining(['/dhr1', '/dhr1-free', '/dhr2']));
    expect((await rows()).filter((r) => r.endedAt === null)).toHaveLength(1);
    await readUntilGone('/dhr1-free');
  });

  it('the retention pass drops ended sessions after 30 days and keeps open ones', async () => {
    const [kept] = await rows();
    expect(kept).toBeDefined();
    await runPrivacyRetention(app.database.db, new Date(Date.now() + 29 * DAY_MS));
    expect((await rows()).length).toBeGreaterThan(0);
    await runPrivacyRetention(app.database.db, new Date(Date.now() + 31 * DAY_MS));
    expect(await rows()).toEqual([]);
  });
});

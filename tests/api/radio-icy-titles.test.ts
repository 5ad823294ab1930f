import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq, isNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { SystemStatus } from '../../src/contracts/admin';
import type { AzuraStationNowPlaying } from '../../src/contracts/nowplaying';
import { streamConnections } from '../../src/server/db/schema';
import { createTestApp, memberWithRole, readMetrics } from '../support/app';
import { freePort, hasIcecast, ICECAST_INSTALL_HINT, radioEnv, startTestRadio } from '../support/icecast';

if (!hasIcecast) console.warn(`Skipping the in-band title reader tests: ${ICECAST_INSTALL_HINT}`);

const KEY = 'test-stream-auth-key-0123456789';

async function eventually(what: string, probe: () => Promise<boolean> | boolean, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Listeners Icecast itself reports on the mount (the reader's connection included). */
function icecastListeners(doc: unknown, mount: string): number | undefined {
  const source = (doc as { icestats?: { source?: unknown } }).icestats?.source;
  const list = (Array.isArray(source) ? source : source ? [source] : []) as { listenurl?: string; listeners?: number }[];
  return list.find((s) => s.listenurl?.endsWith(`/${mount}`))?.listeners;
}

describe.skipIf(!hasIcecast)('titles from the stream itself (a real icecast2, a premium mount with listener auth)', async () => {
  const icecastPort = await freePort();
  // The status poll once a minute: only the in-band reader can explain a title within seconds.
  const app = await createTestApp({ STREAM_AUTH_KEY: KEY, METADATA_POLL_S: '60', ...radioEnv(icecastPort) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as AddressInfo).port;
  const radio = await startTestRadio(
    ['dhr1'],
    { dhr1: 'Kerri Chandler - Rain' },
    {},
    { port: icecastPort, listenerAuth: { mounts: ['dhr1'], url: `http://127.0.0.1:${port}/api/stream-auth/listener`, key: KEY } },
  );
  const nowPlayingDoc = async () => (await app.inject({ method: 'GET', url: '/api/nowplaying/dhr1' })).json<AzuraStationNowPlaying>();

  it('shows a new title on /api/nowplaying and over SSE within 2 s; the reader is no listener and no member connection', async () => {
    app.modules.nowPlaying.start(60_000);
    // Icecast applies a title a moment after the admin call: read the status until it shows.
    await eventually('the first title, from the status', async () => {
      await app.modules.nowPlaying.pollOnce();
      return (await nowPlayingDoc()).now_playing!.song.title === 'Rain';
    });
    app.modules.icyTitles.start();
    // The reader passed the premium mount's listener check with its own token: Icecast lists it.
    await eventually('the reader on the mount', async () => icecastListeners(await radio.status(), 'dhr1') === 1);
    // Icecast lists a listener once admitted, a moment before its answer's headers reach the reader,
    // which counts itself connected only then.
    await eventually('the reader connected', async () => (await readMetrics(app)).body.includes('dhr_title_reader_connected{channel="dhr1"} 1'));
    await app.modules.nowPlaying.pollOnce();
    expect((await nowPlayingDoc()).listeners.current).toBe(0);
    const metrics = (await readMetrics(app)).body;
    expect(metrics).toContain('dhr_title_reader_connected{channel="dhr1"} 1');
    expect(metrics).toContain('dhr_channel_listeners{channel="dhr1"} 0');
    const admin = await memberWithRole(app, 'admin');
    const system = await app.inject({ method: 'GET', url: '/api/admin/system-status', headers: { cookie: admin.cookie } });
    const dhr1 = system.json<SystemStatus>().channels.find((c) => c.id === 'dhr1');
    expect(dhr1?.mounts.find((m) => m.mount === '/dhr1')?.listeners).toBe(0);
    const memberRows = await app.database.db
      .select()
      .from(streamConnections)
      .where(and(eq(streamConnections.mount, '/dhr1'), isNull(streamConnections.endedAt)));
    expect(memberRows).toEqual([]);

    let sse = '';
    const req = http.get(`http://127.0.0.1:${port}/api/live/events`, { agent: false }, (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (sse += chunk));
    });
    try {
      await eventually('the SSE stream', () => sse.includes('"title":"Rain"'));
      for (const [song, title] of [
        ['Moodymann - Shades Of Jae', 'Shades Of Jae'],
        ['Larry Heard - Can You Feel It', 'Can You Feel It'],
      ] as const) {
        const changed = Date.now();
        await radio.setTitle('dhr1', song);
        await eventually(`SSE shows ${title}`, () => sse.includes(`"title":"${title}"`), 2000);
        await eventually(`/api/nowplaying shows ${title}`, async () => (await nowPlayingDoc()).now_playing!.song.title === title, 2000);
        expect(Date.now() - changed).toBeLessThan(2000);
      }
      expect((await nowPlayingDoc()).now_playing!.song.artist).toBe('Larry Heard');
      // A status read now (as the poll would) keeps the reader's title and leaves its connection out of the figures.
      await app.modules.nowPlaying.pollOnce();
      const doc = await nowPlayingDoc();
      expect(doc.now_playing!.song.title).toBe('Can You Feel It');
      expect(doc.listeners.current).toBe(0);
    } finally {
      req.destroy();
    }
  });

  it('a reader that reconnects just after a change does not announce the title before it again', async () => {
    let sse = '';
    const req = http.get(`http://127.0.0.1:${port}/api/live/events`, { agent: false }, (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (sse += chunk));
    });
    try {
      await radio.setTitle('dhr1', 'Jovonn - Turn Around');
      await eventually('the first title', async () => (await nowPlayingDoc()).now_playing!.song.title === 'Turn Around');
      await radio.setTitle('dhr1', 'Glenn Underground - Atmosphere');
      await eventually('the second title', async () => (await nowPlayingDoc()).now_playing!.song.title === 'Atmosphere');
      // Icecast's burst on connect carries the seconds before the change, and their title.
      await app.modules.icyTitles.stop();
      const mark = sse.length;
      app.modules.icyTitles.start();
      await eventually('the reader back', () => app.modules.nowPlaying.titleReaderConnected('dhr1'));
      await new Promise((r) => setTimeout(r, 1500));
      expect(sse.slice(mark)).not.toContain('Turn Around');
      expect((await nowPlayingDoc()).now_playing!.song.title).toBe('Atmosphere');
    } finally {
      req.destroy();
    }
  });

  it('reconnects after the source leaves and comes back, and follows the new titles', async () => {
    await radio.stopFeed('dhr1');
    await radio.startFeed('dhr1');
    await radio.setTitle('dhr1', 'Ron Trent - Altered States');
    await eventually('the title after the source came back', async () => (await nowPlayingDoc()).now_playing!.song.title === 'Altered States');
    await eventually('the reader back on the mount', async () => icecastListeners(await radio.status(), 'dhr1') === 1);
  });
});

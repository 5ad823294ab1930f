import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { recentTracksResponseSchema, recommendationsResponseSchema, trackHistoryResponseSchema, trackMonitorResponseSchema } from '../../src/contracts/radio';
import { trackIdentifications, type NewTrackIdentificationRow } from '../../src/server/db/schema';
import { createTestApp, memberWithRole } from '../support/app';
import { onAir } from '../support/now-playing';

/** Loopback "Icecast mount": endless bytes for the audio capture. */
let streamRequests = 0;
const stream = http.createServer((_req, res) => {
  streamRequests += 1;
  res.writeHead(200, { 'content-type': 'audio/mpeg' });
  const chunk = Buffer.alloc(4096, 0xff);
  const t = setInterval(() => res.write(chunk), 5);
  res.on('close', () => clearInterval(t));
});
/** Loopback AudD whose answer each test picks. */
let audd: { kind: 'match' | 'none' | 'error' | 'slow'; artist: string; title: string } = { kind: 'none', artist: '', title: '' };
let auddRequests = 0;
const auddServer = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    auddRequests += 1;
    const send = (body: unknown) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(body));
    };
    if (audd.kind === 'slow') return void setTimeout(() => send({ status: 'success', result: null }), 3000).unref();
    if (audd.kind === 'error') return send({ status: 'error', error: { error_code: 901, error_message: 'No api_token passed' } });
    if (audd.kind === 'none') return send({ status: 'success', result: null });
    send({
      status: 'success',
      result: {
        artist: audd.artist,
        title: audd.title,
        album: 'LP',
        release_date: '2001-05-01',
        label: 'Label',
        spotify: { external_urls: { spotify: 'https://open.spotify.com/track/abc' } },
      },
    });
  });
});
const listen = (s: http.Server) => new Promise<string>((r) => s.listen(0, '127.0.0.1', () => r(`http://127.0.0.1:${(s.address() as AddressInfo).port}`)));
const streamOrigin = await listen(stream);
const auddOrigin = await listen(auddServer);
afterAll(async () => {
  for (const s of [stream, auddServer]) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

describe('track monitor (RECOGNIZER=audd) and track routes', async () => {
  const app = await createTestApp({
    RECOGNIZER: 'audd',
    AUDD_API_URL: `${auddOrigin}/`,
    AUDD_API_TOKEN: 'test-token',
    DHR1_STREAM_URL: `${streamOrigin}/dhr1`,
    DHR2_STREAM_URL: `${streamOrigin}/dhr2`,
    TRACK_MONITOR_INTERVAL_S: '120',
  });
  app.modules.trackMonitor.sampleSeconds = 1;
  app.modules.trackMonitor.recognizerTimeoutMs = 500;
  const monitor = app.modules.trackMonitor;
  // Track identification is a DHR1 benefit: its reads are made as a DHR1 member.
  const listener = await memberWithRole(app, 'dhr1');
  const identGet = (url: string) => app.inject({ method: 'GET', url, headers: { cookie: listener.cookie } });
  const count = async (channel: string) => (await app.database.db.select().from(trackIdentifications)).filter((r) => r.channel === channel).length;
  const recent = async (channel: string, query = '') => {
    const res = await identGet(`/api/tracks/recent/${channel}${query}`);
    expect(res.statusCode).toBe(200);
    return recentTracksResponseSchema.parse(res.json());
  };

  it('stores nothing while the channel is off air', async () => {
    expect(await monitor.checkChannel('dhr1')).toBeUndefined();
    expect(await count('dhr1')).toBe(0);
    expect(streamRequests).toBe(0);
    const cur = trackMonitorResponseSchema.parse((await identGet('/api/track-monitor/current/dhr1')).json());
    expect(cur).toEqual({ track: null, isActive: false });
  });

  it('captures audio, stores the AudD match, and does not store it again while it plays', async () => {
    await app.modules.nowPlaying.publish(onAir('dhr1', 'DHR Live', 'Sunday Session', 3));
    audd = { kind: 'match', artist: 'Kerri Chandler', title: 'Rain' };
    const before = auddRequests;
    const row = await monitor.checkChannel('dhr1');
    expect(streamRequests).toBeGreaterThan(0);
    expect(auddRequests).toBe(before + 1);
    expect(row).toMatchObject({
      artist: 'Kerri Chandler',
      title: 'Rain',
      service: 'audd',
      confidence: 100,
      album: 'LP',
      spotifyUrl: 'https://open.spotify.com/track/abc',
    });
    // Two minutes later it still plays: no second row.
    expect(await monitor.checkChannel('dhr1', new Date(Date.now() + 120_000))).toBeUndefined();
    expect(await count('dhr1')).toBe(1);

    const list = await recent('dhr1');
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      title: 'Rain',
      artist: 'Kerri Chandler',
      service: 'audd',
      confidence: 100,
      releaseDate: '2001-05-01',
      spotifyUrl: 'https://open.spotify.com/track/abc',
      // No direct links in the result: search links built from artist and title.
      youtubeUrl: 'https://www.youtube.com/results?search_query=Kerri%20Chandler%20Rain',
      soundcloudUrl: 'https://soundcloud.com/search?q=Kerri%20Chandler%20Rain',
    });

    const cur = trackMonitorResponseSchema.parse((await identGet('/api/track-monitor/current/dhr1')).json());
    expect(cur.track).toMatchObject({ title: 'Rain', artist: 'Kerri Chandler', service: 'audd', confidence: 100 });
    expect(cur.isActive).toBe(false);
  });

  it('falls back to the stream metadata when AudD finds nothing, errs or times out', async () => {
    audd = { kind: 'none', artist: '', title: '' };
    const fallback = await monitor.checkChannel('dhr1', new Date(Date.now() + 240_000));
    expect(fallback).toMatchObject({ artist: 'DHR Live', title: 'Sunday Session', service: 'icecast-metadata', confidence: 100 });
    for (const kind of ['error', 'slow'] as const) {
      audd = { kind, artist: '', title: '' };
      // Same metadata track still playing: nothing new.
      expect(await monitor.checkChannel('dhr1', new Date(Date.now() + 300_000))).toBeUndefined();
    }
    expect(await count('dhr1')).toBe(2);
    // The list cache was dropped when the new play was stored.
    expect((await recent('dhr1')).map((t) => t.title)).toEqual(['Sunday Session', 'Rain']);
  });

  it('stores the same track again once it played earlier and came back later', async () => {
    audd = { kind: 'match', artist: 'Kerri Chandler', title: 'Rain' };
    await monitor.checkChannel('dhr1', new Date(Date.now() + 360_000));
    audd = { kind: 'none', artist: '', title: '' };
    // An hour later the station plays its metadata track again: a new play.
    const again = await monitor.checkChannel('dhr1', new Date(Date.now() + 3_600_000));
    expect(again).toMatchObject({ title: 'Sunday Session' });
    expect(await count('dhr1')).toBe(4);
  });

  it('reports isActive while the monitor runs for a channel on air', async () => {
    monitor.start(3_600_000);
    try {
      expect((await identGet('/api/track-monitor/current/dhr1')).json()).toMatchObject({ isActive: true });
      // dhr2 is not on air.
      expect((await identGet('/api/track-monitor/current/dhr2')).json()).toMatchObject({ track: null, isActive: false });
    } finally {
      await monitor.stop();
    }
  });

  it('validates channel and limit', async () => {
    expect((await identGet('/api/tracks/recent/nope')).statusCode).toBe(404);
    expect((await identGet('/api/track-monitor/current/nope')).json()).toMatchObject({ error: { code: 'unknown_channel' } });
    for (const q of ['?limit=0', '?limit=1001', '?limit=abc', '?limit=2.5']) {
      const res = await identGet(`/api/tracks/recent/dhr1${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json<{ message: string }>().message).toContain('limit');
    }
    expect(await recent('dhr1', '?limit=1')).toHaveLength(1);
    expect(await recent('dhr1', '?limit=1000')).toHaveLength(4);
    expect(await recent('dhr2')).toEqual([]);
  });

  it('sends identification details only to tiers that include track identification', async () => {
    const urls = ['/api/tracks/recent/dhr1', '/api/track-monitor/current/dhr1'];
    // The lists are now in memory for DHR1 members: a refused caller must not be answered from there.
    for (const url of urls) expect((await identGet(url)).statusCode).toBe(200);
    for (const url of urls) {
      const visitor = await app.inject({ method: 'GET', url });
      expect(visitor.statusCode, url).toBe(401);
      expect(visitor.body).not.toContain('Kerri Chandler');
      for (const role of ['free', 'expired-vip'] as const) {
        const m = await memberWithRole(app, role);
        const res = await app.inject({ method: 'GET', url, headers: { cookie: m.cookie } });
        expect(res.statusCode, `${role} ${url}`).toBe(403);
        expect(res.body).not.toContain('Kerri Chandler');
      }
      for (const role of ['dhr2', 'vip', 'admin'] as const) {
        const m = await memberWithRole(app, role);
        const res = await app.inject({ method: 'GET', url, headers: { cookie: m.cookie } });
        expect(res.statusCode, `${role} ${url}`).toBe(200);
        expect(res.headers['cache-control']).toContain('no-');
      }
    }
    expect((await identGet('/api/tracks/recent/dhr1')).body).toContain('Kerri Chandler');
    // What is on air by the stream's own title stays public (the live monitor's on-air line).
    expect((await app.inject({ method: 'GET', url: '/api/live-metadata/dhr1' })).statusCode).toBe(200);
  });

  describe('recommendations', () => {
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000 - 86_400_000);
    const row = (artist: string, title: string, minutesAgo: number, extra: Partial<NewTrackIdentificationRow> = {}): NewTrackIdentificationRow => ({
      channel: 'dhr2',
      artist,
      title,
      confidence: 95,
      service: 'acrcloud',
      identifiedAt: at(minutesAgo),
      lastSeenAt: at(minutesAgo),
      ...extra,
    });

    it('draws at most 3 from the station history: same artist, played near it, same genre or bpm', async () => {
      await app.database.db
        .insert(trackIdentifications)
        .values([
          row('Larry Heard', 'Can You Feel It', 600, { genre: 'Deep House', bpm: 120 }),
          row('Larry Heard', 'Mystery Of Love', 300, { youtubeUrl: 'https://www.youtube.com/watch?v=mol12345' }),
          row('Ron Trent', 'Altered States', 605),
          row('Far Away Artist', 'Played Much Later', 100),
          row('Genre Twin', 'Same Genre', 2000, { genre: 'deep house' }),
          row('Bpm Twin', 'Close Tempo', 3000, { bpm: 122 }),
        ]);
      const dhr1 = await memberWithRole(app, 'dhr1');
      const res = await app.inject({
        method: 'POST',
        url: '/api/tracks/recommendations',
        headers: { cookie: dhr1.cookie },
        payload: { artist: 'larry heard', title: 'CAN YOU FEEL IT', channel: 'dhr2' },
      });
      expect(res.statusCode).toBe(200);
      const recs = recommendationsResponseSchema.parse(res.json());
      expect(recs).toEqual([
        {
          title: 'Mystery Of Love',
          artist: 'Larry Heard',
          youtubeUrl: 'https://www.youtube.com/watch?v=mol12345',
          soundcloudUrl: 'https://soundcloud.com/search?q=Larry%20Heard%20Mystery%20Of%20Love',
        },
        {
          title: 'Altered States',
          artist: 'Ron Trent',
          youtubeUrl: 'https://www.youtube.com/results?search_query=Ron%20Trent%20Altered%20States',
          soundcloudUrl: 'https://soundcloud.com/search?q=Ron%20Trent%20Altered%20States',
        },
        expect.objectContaining({ title: 'Same Genre' }),
      ]);
    });

    it('suggests by bpm and never the track itself; nothing for a track it does not know', async () => {
      const dhr2 = await memberWithRole(app, 'dhr2');
      await app.database.db.insert(trackIdentifications).values(row('Solo Artist', 'Only Track', 10, { bpm: 121 }));
      const res = await app.inject({
        method: 'POST',
        url: '/api/tracks/recommendations',
        headers: { cookie: dhr2.cookie },
        payload: { artist: 'Solo Artist', title: 'Only Track', channel: 'dhr2' },
      });
      const titles = recommendationsResponseSchema.parse(res.json()).map((r) => r.title);
      expect(titles).not.toContain('Only Track');
      expect(titles).toEqual(expect.arrayContaining(['Can You Feel It', 'Close Tempo']));
      const unknown = await app.inject({
        method: 'POST',
        url: '/api/tracks/recommendations',
        headers: { cookie: dhr2.cookie },
        payload: { artist: 'Nobody', title: 'Nothing', channel: 'dhr1' },
      });
      expect(unknown.json()).toEqual([]);
    });

    it('is for DHR1 and above, and validates the body', async () => {
      const payload = { artist: 'Larry Heard', title: 'Can You Feel It', channel: 'dhr1' };
      expect((await app.inject({ method: 'POST', url: '/api/tracks/recommendations', payload })).statusCode).toBe(401);
      const free = await memberWithRole(app, 'free');
      expect((await app.inject({ method: 'POST', url: '/api/tracks/recommendations', headers: { cookie: free.cookie }, payload })).statusCode).toBe(403);
      const expired = await memberWithRole(app, 'expired-vip');
      expect((await app.inject({ method: 'POST', url: '/api/tracks/recommendations', headers: { cookie: expired.cookie }, payload })).statusCode).toBe(403);
      const admin = await memberWithRole(app, 'admin');
      expect((await app.inject({ method: 'POST', url: '/api/tracks/recommendations', headers: { cookie: admin.cookie }, payload })).statusCode).toBe(200);
      const dhr1 = await memberWithRole(app, 'dhr1');
      const bad = await app.inject({
        method: 'POST',
        url: '/api/tracks/recommendations',
        headers: { cookie: dhr1.cookie },
        payload: { artist: '  ', title: 'x', channel: 'dhr1' },
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json<{ message: string }>().message).toContain('artist');
      const huge = await app.inject({
        method: 'POST',
        url: '/api/tracks/recommendations',
        headers: { cookie: dhr1.cookie },
        payload: { artist: 'a'.repeat(5000), title: 'x', channel: 'dhr1' },
      });
      expect(huge.statusCode).toBe(400);
      const unknownChannel = await app.inject({
        method: 'POST',
        url: '/api/tracks/recommendations',
        headers: { cookie: dhr1.cookie },
        payload: { ...payload, channel: 'dhr7' },
      });
      expect(unknownChannel.statusCode).toBe(404);
    });

    it('limits each address to 60 suggestions a minute', async () => {
      const dhr1 = await memberWithRole(app, 'dhr1');
      const ask = (remoteAddress: string) =>
        app.inject({
          method: 'POST',
          url: '/api/tracks/recommendations',
          remoteAddress,
          headers: { cookie: dhr1.cookie },
          payload: { artist: 'Nobody', title: 'Nothing', channel: 'dhr1' },
        });
      for (let i = 0; i < 60; i++) expect((await ask('192.0.2.60')).statusCode).toBe(200);
      const limited = await ask('192.0.2.60');
      expect(limited.statusCode).toBe(429);
      expect(limited.headers['retry-after']).toBeDefined();
      expect((await ask('192.0.2.61')).statusCode).toBe(200);
    });
  });

  describe('track history', () => {
    it('admin and vip read it with stats; others are refused', async () => {
      const admin = await memberWithRole(app, 'admin');
      const res = await app.inject({ method: 'GET', url: '/api/admin/track-history', headers: { cookie: admin.cookie } });
      expect(res.statusCode).toBe(200);
      const body = trackHistoryResponseSchema.parse(res.json());
      const total = body.tracks.length;
      expect(total).toBe(11);
      expect(body.stats).toMatchObject({ total: 11, highConfidence: 11 });
      // Kerri Chandler, DHR Live, Larry Heard, Ron Trent, Far Away Artist, Genre Twin, Bpm Twin, Solo Artist.
      expect(body.stats.uniqueArtists).toBe(8);
      // Direct links only: the AudD Spotify links (2) and one YouTube link.
      expect(body.stats.withLinks).toBe(3);
      expect(body.stats.firstAt && body.stats.lastAt && body.stats.firstAt < body.stats.lastAt).toBe(true);
      const times = body.tracks.map((t) => t.identifiedAt);
      expect([...times].sort().reverse()).toEqual(times);

      const byChannel = trackHistoryResponseSchema.parse(
        (await app.inject({ method: 'GET', url: '/api/admin/track-history?channel=dhr1&limit=2', headers: { cookie: admin.cookie } })).json(),
      );
      expect(byChannel.tracks).toHaveLength(2);
      expect(byChannel.stats.total).toBe(4);

      const vip = await memberWithRole(app, 'vip');
      expect((await app.inject({ method: 'GET', url: '/api/vip/track-history', headers: { cookie: vip.cookie } })).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/api/vip/track-history', headers: { cookie: admin.cookie } })).statusCode).toBe(200);
      const adminByVip = await app.inject({ method: 'GET', url: '/api/admin/track-history', headers: { cookie: vip.cookie } });
      expect(adminByVip.statusCode).toBe(403);
      expect(adminByVip.json<{ message: string }>().message).toBe('Admin privileges required');
      for (const role of ['free', 'dhr1', 'dhr2', 'expired-vip'] as const) {
        const m = await memberWithRole(app, role);
        expect((await app.inject({ method: 'GET', url: '/api/vip/track-history', headers: { cookie: m.cookie } })).statusCode, role).toBe(403);
      }
      expect((await app.inject({ method: 'GET', url: '/api/vip/track-history' })).statusCode).toBe(401);
      expect((await app.inject({ method: 'GET', url: '/api/admin/track-history' })).statusCode).toBe(401);
      expect((await app.inject({ method: 'GET', url: '/api/admin/track-history?limit=5000', headers: { cookie: admin.cookie } })).statusCode).toBe(400);
    });

    it('only admins clear it; clearing one channel leaves the other', async () => {
      const vip = await memberWithRole(app, 'vip');
      const refused = await app.inject({ method: 'DELETE', url: '/api/admin/track-history', headers: { cookie: vip.cookie } });
      expect(refused.statusCode).toBe(403);
      expect(refused.json<{ message: string }>().message).toBe('Admin privileges required');
      expect(await count('dhr1')).toBe(4);

      const admin = await memberWithRole(app, 'admin');
      expect((await recent('dhr1')).length).toBe(4);
      const one = await app.inject({ method: 'DELETE', url: '/api/admin/track-history?channel=dhr1', headers: { cookie: admin.cookie } });
      expect(one.json()).toEqual({ deleted: 4 });
      // The cached list is dropped at once.
      expect(await recent('dhr1')).toEqual([]);
      expect((await recent('dhr2')).length).toBe(7);
      const all = await app.inject({ method: 'DELETE', url: '/api/admin/track-history', headers: { cookie: admin.cookie } });
      expect(all.json()).toEqual({ deleted: 7 });
      expect(await recent('dhr2')).toEqual([]);
      const cross = await app.inject({ method: 'DELETE', url: '/api/admin/track-history', headers: { cookie: admin.cookie, origin: 'https://evil.example' } });
      expect(cross.statusCode).toBe(403);
    });
  });
});
